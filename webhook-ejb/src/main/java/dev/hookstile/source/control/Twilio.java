package dev.hookstile.source.control;

import dev.hookstile.source.JsonFields;

import dev.hookstile.source.Delivery;
import dev.hookstile.source.InvalidSetting;
import dev.hookstile.source.Provider;
import dev.hookstile.source.RejectedDelivery;
import dev.hookstile.source.Rejection;
import dev.hookstile.source.VerifiedDelivery;
import dev.hookstile.source.Source;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Twilio: {@code X-Twilio-Signature: <base64 HMAC-SHA1>} keyed with the account's auth token, over the URL Twilio
 * called followed by every form field's name and value, sorted by name and then by value. A JSON body is not
 * signed field by field: Twilio adds {@code bodySHA256=<hex SHA-256 of the body>} to the query string and signs the
 * URL alone.
 *
 * <p>The URL ({@link TwilioUrls}) is the {@code public-url} setting (what Twilio was given, since a proxy rewrites scheme, host and port)
 * followed by the request's own query string. The setting is required: the URL as this server sees it is built from
 * the request's {@code Host} header and scheme, which the sender chooses.
 *
 * <p>The event id is the {@code I-Twilio-Idempotency-Token} header, the same on Twilio's retries; without it, the
 * resource's SID joined with its status, so that each status callback of one message or call is its own event.
 * The type is that status.
 */
final class Twilio implements Provider {

    static final String SIGNATURE = "X-Twilio-Signature";
    static final String PUBLIC_URL = "public-url";
    private static final String IDEMPOTENCY_TOKEN = "I-Twilio-Idempotency-Token";
    private static final String HMAC_SHA1 = "HmacSHA1";
    private static final int SHA1_BYTES = 20;
    private static final String BODY_SHA256 = "bodySHA256";
    private static final List<String> RETAINED = List.of(SIGNATURE, IDEMPOTENCY_TOKEN, "Content-Type", "User-Agent");
    private static final Set<String> SIGNATURES = Set.of("x-twilio-signature");

    /**
     * Each SID with the status fields that describe it, most specific first: a transcription callback also carries
     * the RecordingSid and CallSid, a recording callback the CallSid, an SMS the legacy SmsSid and SmsStatus.
     */
    private static final List<List<String>> IDENTITIES = List.of(
            List.of("TranscriptionSid", "TranscriptionStatus"),
            List.of("RecordingSid", "RecordingStatus"),
            List.of("MessageSid", "MessageStatus", "SmsStatus"),
            List.of("SmsSid", "SmsStatus"),
            List.of("CallSid", "CallStatus"));
    private static final Set<String> FIELDS =
            IDENTITIES.stream().flatMap(List::stream).collect(Collectors.toUnmodifiableSet());

    // Twilio's own helper libraries order repeated names by value; code-unit order is what its Java and Node ones use.
    private static final Comparator<FormFields.Field> SIGNING_ORDER =
            Comparator.comparing(FormFields.Field::name).thenComparing(FormFields.Field::value);

    @Override
    public String name() {
        return "twilio";
    }

    @Override
    public String signingScheme(Map<String, String> settings) {
        return "HMAC-SHA1 of the URL and parameters (X-Twilio-Signature)";
    }

    /** Twilio retries a failed callback within minutes, if at all. */
    @Override
    public Duration retryWindow() {
        return Duration.ofDays(1);
    }

    @Override
    public Set<String> settingNames() {
        return Set.of(PUBLIC_URL);
    }

    @Override
    public void checkSettings(Map<String, String> settings) throws InvalidSetting {
        String publicUrl = settings.get(PUBLIC_URL);
        if (publicUrl == null || publicUrl.isBlank()) {
            // The request's scheme and Host are the sender's to choose: a signature over them proves nothing.
            throw new InvalidSetting(PUBLIC_URL, "is required: the absolute URL given to Twilio, e.g. "
                    + "https://hooks.example.com/webhooks/sms (the request's own Host and scheme are not trusted)");
        }
        URI uri;
        try {
            uri = new URI(publicUrl);
        } catch (URISyntaxException e) {
            throw new InvalidSetting(PUBLIC_URL, "is not a valid URL: " + e.getReason());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("https") || scheme.equals("http")) || uri.getHost() == null) {
            throw new InvalidSetting(PUBLIC_URL,
                    "must be the absolute http(s) URL given to Twilio, e.g. https://hooks.example.com/webhooks/sms");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new InvalidSetting(PUBLIC_URL,
                    "must not have a query string: the query string of each request is appended to it");
        }
    }

    /**
     * The {@code I-Twilio-Idempotency-Token}, the event id whenever Twilio sends it, is outside the signature: a
     * captured callback sent again under a fresh token still verifies.
     */
    @Override
    public Duration defaultBodyDedupWindow(Map<String, String> settings) {
        return retryWindow();
    }

    /**
     * What Twilio signs of a form body: the fields' names and values, decoded and sorted, joined as they are
     * signed. The bytes are not signed: the same fields reordered, or a letter percent-encoded, verify just the
     * same and must not pass as a new body. The URL is left out (the configured one, or a port variant, never tells
     * two events apart).
     *
     * <p>Every body that decodes as a form is digested that way, a JSON one too: which way a body was verified is
     * not known here, and guessing it from the bytes would let a re-encoded form pass as JSON. A JSON body is signed
     * byte for byte (its {@code bodySHA256}); read as a form, two JSON bodies share a digest only if they differ in
     * nothing but a {@code +} for a space, a percent-encoded character or the order of {@code &}-separated parts,
     * which two distinct callbacks never do. A body that is not valid form encoding can only have verified as JSON: its
     * bytes are digested.
     */
    @Override
    public byte[] bodyFingerprint(byte[] body) {
        try {
            // The prefix keeps the signed text apart from any raw body.
            return Provider.sha256(signedText(FORM_FINGERPRINT, FormFields.parse(body)));
        } catch (RejectedDelivery notAForm) {
            return Provider.sha256(body);
        }
    }

    private static final String FORM_FINGERPRINT = "\u0000twilio-form\u0000";

    @Override
    public VerifiedDelivery verify(Delivery delivery, Source source) throws RejectedDelivery {
        byte[] given = Hmac.wellFormed(base64OrNull(Hmac.requiredHeader(delivery, SIGNATURE)), SIGNATURE,
                "the base64 of a 20-byte HMAC-SHA1");
        String url = TwilioUrls.signed(delivery, source);
        String bodyHash = TwilioUrls.queryValue(url, BODY_SHA256);
        List<FormFields.Field> fields = bodyHash == null ? FormFields.parse(delivery.body()) : List.of();
        List<byte[]> candidates = new ArrayList<>(2);
        for (String variant : TwilioUrls.portVariants(url)) {
            candidates.add(signedText(variant, fields));
        }
        boolean valid = false;
        for (byte[] text : candidates) {
            valid |= Hmac.matches(source, HMAC_SHA1, given, text);
        }
        if (!valid) {
            throw new RejectedDelivery(Rejection.INVALID_SIGNATURE, SIGNATURE + " does not match the URL and "
                    + (bodyHash == null ? "form parameters" : "bodySHA256") + " under any configured auth token");
        }
        if (bodyHash != null && !Hmac.equal(Provider.sha256(delivery.body()), Hmac.hexOrNull(bodyHash, 32))) {
            throw new RejectedDelivery(Rejection.INVALID_SIGNATURE,
                    "the SHA-256 of the body does not match the signed " + BODY_SHA256);
        }
        String token = delivery.header(IDEMPOTENCY_TOKEN);
        boolean hasToken = token != null && !token.isEmpty();
        Resource resource = Resource.of(bodyHash == null ? firstValues(fields) : jsonFields(delivery, hasToken));
        if (!hasToken && resource == null) {
            throw new RejectedDelivery(Rejection.MISSING_EVENT_ID, "neither the " + IDEMPOTENCY_TOKEN
                    + " header nor the SID of a message, call, recording or transcription is present");
        }
        String type = resource == null ? "" : resource.status();
        return VerifiedDelivery.event(hasToken ? token : resource.id(), type, delivery.retain(RETAINED, SIGNATURES));
    }

    private static byte[] signedText(String url, List<FormFields.Field> fields) {
        var text = new StringBuilder(url);
        fields.stream().sorted(SIGNING_ORDER).forEach(field -> text.append(field.name()).append(field.value()));
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static Map<String, String> firstValues(List<FormFields.Field> fields) {
        var values = new HashMap<String, String>();
        for (FormFields.Field field : fields) {
            if (FIELDS.contains(field.name())) {
                values.putIfAbsent(field.name(), field.value());
            }
        }
        return values;
    }

    /**
     * The same fields from a JSON body. With an idempotency token, a body that is not a JSON object only lacks a
     * type; without one, it cannot be identified.
     */
    private static Map<String, String> jsonFields(Delivery delivery, boolean hasToken) throws RejectedDelivery {
        try {
            return JsonFields.topLevel(delivery.body(), FIELDS);
        } catch (RejectedDelivery e) {
            if (hasToken) {
                return Map.of();
            }
            throw e;
        }
    }

    /** The message, call, recording or transcription a callback is about, and its status ({@code ""} if none). */
    private record Resource(String sid, String status) {

        static Resource of(Map<String, String> fields) {
            for (List<String> identity : IDENTITIES) {
                String sid = fields.get(identity.get(0));
                if (sid != null && !sid.isEmpty()) {
                    for (String statusField : identity.subList(1, identity.size())) {
                        String status = fields.get(statusField);
                        if (status != null && !status.isEmpty()) {
                            return new Resource(sid, status);
                        }
                    }
                    return new Resource(sid, "");
                }
            }
            return null;
        }

        String id() {
            return status.isEmpty() ? sid : sid + ":" + status;
        }
    }

    private static byte[] base64OrNull(String text) {
        try {
            byte[] decoded = Base64.getDecoder().decode(text);
            return decoded.length == SHA1_BYTES ? decoded : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
