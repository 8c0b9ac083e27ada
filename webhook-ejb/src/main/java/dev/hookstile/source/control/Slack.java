package dev.hookstile.source.control;

import dev.hookstile.source.JsonFields;

import dev.hookstile.source.Answer;
import dev.hookstile.source.Delivery;
import dev.hookstile.source.Provider;
import dev.hookstile.source.RejectedDelivery;
import dev.hookstile.source.Rejection;
import dev.hookstile.source.VerifiedDelivery;
import dev.hookstile.source.Source;
import jakarta.json.Json;
import jakarta.json.stream.JsonGenerator;
import jakarta.json.stream.JsonGeneratorFactory;

import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Slack Events API: {@code X-Slack-Signature: v0=<hex HMAC-SHA256>} over
 * {@code "v0:" + X-Slack-Request-Timestamp + ":" + body}, keyed with the app's signing secret. The event id is the
 * JSON {@code event_id} (the same on Slack's retries); the type is {@code event.type} (e.g. {@code message}), else
 * the envelope's {@code type}. Slack's endpoint check, {@code url_verification}, is answered with its challenge and
 * queues nothing.
 *
 * <p>Only the Events API's JSON is accepted. Slash commands and interactivity are signed the same way but post form
 * bodies that carry no id to deduplicate on and expect their reply in the HTTP response, which a queue cannot give;
 * they are refused as {@link Rejection#INVALID_PAYLOAD} once the signature has passed.
 */
final class Slack implements Provider {

    static final String SIGNATURE = "X-Slack-Signature";
    static final String TIMESTAMP = "X-Slack-Request-Timestamp";
    private static final String VERSION = "v0";
    private static final String PREFIX = VERSION + "=";
    private static final List<String> RETAINED = List.of(TIMESTAMP, "X-Slack-Retry-Num", "X-Slack-Retry-Reason",
            SIGNATURE, "Content-Type", "User-Agent");
    private static final Set<String> SIGNATURES = Set.of("x-slack-signature");
    private static final String EVENT_ID = "/event_id";
    private static final String TYPE = "/type";
    private static final String EVENT_TYPE = "/event/type";
    private static final String CHALLENGE = "/challenge";
    private static final Set<String> FIELDS = Set.of(EVENT_ID, TYPE, EVENT_TYPE, CHALLENGE);

    // Like JsonFields' parser factory: look the JSON-P provider up once, not per request.
    private static final JsonGeneratorFactory GENERATORS = Json.createGeneratorFactory(Map.of());

    @Override
    public String name() {
        return "slack";
    }

    @Override
    public String signingScheme(Map<String, String> settings) {
        return "HMAC-SHA256 of “v0:timestamp:body” (X-Slack-Signature)";
    }

    /** Slack retries a failed event three times within the hour. */
    @Override
    public Duration retryWindow() {
        return Duration.ofDays(1);
    }

    @Override
    public VerifiedDelivery verify(Delivery delivery, Source source) throws RejectedDelivery {
        String header = Hmac.requiredHeader(delivery, SIGNATURE);
        byte[] given = Hmac.wellFormed(
                header.startsWith(PREFIX) ? Hmac.hexOrNull(header.substring(PREFIX.length()), 32) : null,
                SIGNATURE, "'v0=' followed by 64 hexadecimal digits");
        String timestamp = delivery.header(TIMESTAMP);
        if (timestamp == null) {
            throw new RejectedDelivery(Rejection.INVALID_TIMESTAMP, "the " + TIMESTAMP + " header is missing");
        }
        long signedAt = Timestamps.epochSeconds(timestamp, TIMESTAMP);
        byte[] prefix = baseStringPrefix(timestamp);
        if (!Hmac.matches(source, Hmac.SHA256, given, prefix, delivery.body())) {
            throw new RejectedDelivery(Rejection.INVALID_SIGNATURE,
                    SIGNATURE + " does not match the timestamp and body under any configured secret");
        }
        Timestamps.requireWithin(signedAt, delivery.receivedAt(), source.tolerance());
        Map<String, String> fields = fields(delivery);
        String type = fields.get(TYPE);
        if ("url_verification".equals(type)) {
            String challenge = fields.get(CHALLENGE);
            if (challenge == null || challenge.isEmpty()) {
                throw new RejectedDelivery(Rejection.INVALID_PAYLOAD, "the url_verification body has no \"challenge\"");
            }
            return VerifiedDelivery.answered(new Answer(200, "application/json", challengeAnswer(challenge)));
        }
        String id = fields.get(EVENT_ID);
        if (id == null || id.isEmpty()) {
            throw new RejectedDelivery(Rejection.MISSING_EVENT_ID, "the JSON body has no \"event_id\"");
        }
        String eventType = fields.get(EVENT_TYPE);
        return VerifiedDelivery.event(id, eventType != null ? eventType : type == null ? "" : type,
                delivery.retain(RETAINED, SIGNATURES));
    }

    private static Map<String, String> fields(Delivery delivery) throws RejectedDelivery {
        try {
            return JsonFields.values(delivery.body(), FIELDS);
        } catch (RejectedDelivery notJson) {
            String contentType = delivery.header("Content-Type");
            if (contentType != null && contentType.toLowerCase(Locale.ROOT)
                    .startsWith("application/x-www-form-urlencoded")) {
                throw new RejectedDelivery(Rejection.INVALID_PAYLOAD, "the body is a form, as Slack sends for slash "
                        + "commands and interactivity; this provider accepts only the Events API's JSON");
            }
            throw notJson;
        }
    }

    private static byte[] baseStringPrefix(String timestamp) {
        return (VERSION + ":" + timestamp + ":").getBytes(StandardCharsets.US_ASCII);
    }

    // The challenge is the sender's text: encode it as JSON rather than paste it between quotes.
    private static String challengeAnswer(String challenge) {
        var out = new StringWriter();
        try (JsonGenerator json = GENERATORS.createGenerator(out)) {
            json.writeStartObject().write("challenge", challenge).writeEnd();
        }
        return out.toString();
    }

    /** Visible for tests: the header Slack would send for this timestamp and body. */
    static String sign(byte[] secret, String timestamp, byte[] body) {
        return PREFIX + Hmac.hex(Hmac.compute(Hmac.SHA256, secret, baseStringPrefix(timestamp), body));
    }
}
