package dev.hookstile.source.control;

import dev.hookstile.source.JsonFields;

import dev.hookstile.source.Delivery;
import dev.hookstile.source.InvalidSetting;
import dev.hookstile.source.Provider;
import dev.hookstile.source.RejectedDelivery;
import dev.hookstile.source.Rejection;
import dev.hookstile.source.VerifiedDelivery;
import dev.hookstile.source.Source;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * An HMAC of the raw body in a header, as in-house senders sign: the header, algorithm, encoding and prefix, and
 * where the event id and type are found (a header or a JSON pointer), all come from the source's settings. Keyed
 * with the secret's UTF-8 bytes. Nothing is timestamped, so a captured delivery can be replayed; only the event id's
 * deduplication stops it being processed twice.
 */
final class ConfiguredHmac implements Provider {

    static final String SIGNATURE_HEADER = "signature-header";
    static final String ALGORITHM = "algorithm";
    static final String ENCODING = "encoding";
    static final String SIGNATURE_PREFIX = "signature-prefix";
    static final String EVENT_ID_HEADER = "event-id-header";
    static final String EVENT_ID_POINTER = "event-id-pointer";
    static final String TYPE_HEADER = "type-header";
    static final String TYPE_POINTER = "type-pointer";

    // RFC 9110 token: what a header name may be.
    private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");
    // RFC 6901: '/'-separated reference tokens, '~' only as ~0 or ~1. The empty pointer (the whole body) is no id.
    private static final Pattern JSON_POINTER = Pattern.compile("(/([^~/]|~[01])*)+");

    enum Algorithm {
        SHA1("HmacSHA1", 20), SHA256("HmacSHA256", 32), SHA512("HmacSHA512", 64);

        final String jca;
        final int bytes;

        Algorithm(String jca, int bytes) {
            this.jca = jca;
            this.bytes = bytes;
        }
    }

    enum Encoding {
        HEX, BASE64
    }

    /** A source's settings, checked and with defaults applied. */
    private record Scheme(String signatureHeader, Algorithm algorithm, Encoding encoding, String prefix,
                          String idHeader, String idPointer, String typeHeader, String typePointer) {

        static Scheme of(Map<String, String> settings) {
            String signatureHeader = header(settings, SIGNATURE_HEADER);
            if (signatureHeader == null) {
                throw new InvalidSetting(SIGNATURE_HEADER, "is required: the header that carries the signature");
            }
            Algorithm algorithm = choice(settings, ALGORITHM, Algorithm.class, Algorithm.SHA256);
            Encoding encoding = choice(settings, ENCODING, Encoding.class, Encoding.HEX);
            String idHeader = header(settings, EVENT_ID_HEADER);
            String idPointer = pointer(settings, EVENT_ID_POINTER);
            if (idHeader == null && idPointer == null) {
                throw new InvalidSetting(EVENT_ID_HEADER,
                        "is required, or " + EVENT_ID_POINTER + " instead: deliveries are deduplicated on the event id");
            }
            if (idHeader != null && idPointer != null) {
                throw new InvalidSetting(EVENT_ID_POINTER, "cannot be set with " + EVENT_ID_HEADER + ": set one");
            }
            String typeHeader = header(settings, TYPE_HEADER);
            String typePointer = pointer(settings, TYPE_POINTER);
            if (typeHeader != null && typePointer != null) {
                throw new InvalidSetting(TYPE_POINTER, "cannot be set with " + TYPE_HEADER + ": set one");
            }
            return new Scheme(signatureHeader, algorithm, encoding, present(settings, SIGNATURE_PREFIX),
                    idHeader, idPointer, typeHeader, typePointer);
        }

        private static String present(Map<String, String> settings, String name) {
            String value = settings.get(name);
            return value == null || value.isEmpty() ? null : value;
        }

        private static String header(Map<String, String> settings, String name) {
            String value = present(settings, name);
            if (value != null && !HEADER_NAME.matcher(value).matches()) {
                throw new InvalidSetting(name, "must be an HTTP header name, e.g. X-Signature");
            }
            return value;
        }

        private static String pointer(Map<String, String> settings, String name) {
            String value = present(settings, name);
            if (value != null && !JSON_POINTER.matcher(value).matches()) {
                throw new InvalidSetting(name, "must be a JSON pointer (RFC 6901), e.g. /id or /data/event_id");
            }
            return value;
        }

        private static <E extends Enum<E>> E choice(Map<String, String> settings, String name, Class<E> type,
                                                    E fallback) {
            String value = present(settings, name);
            if (value == null) {
                return fallback;
            }
            for (E constant : type.getEnumConstants()) {
                if (constant.name().equalsIgnoreCase(value.trim())) {
                    return constant;
                }
            }
            var allowed = new ArrayList<String>();
            for (E constant : type.getEnumConstants()) {
                allowed.add(constant.name().toLowerCase(Locale.ROOT));
            }
            throw new InvalidSetting(name, "must be one of " + String.join(", ", allowed));
        }

        Set<String> pointers() {
            var pointers = new HashSet<String>(2);
            if (idPointer != null) {
                pointers.add(idPointer);
            }
            if (typePointer != null) {
                pointers.add(typePointer);
            }
            return pointers;
        }
    }

    @Override
    public String name() {
        return "hmac";
    }

    /** As the source configures it: the algorithm, the encoding, the header and the prefix before the value. */
    @Override
    public String signingScheme(Map<String, String> settings) {
        Scheme scheme = Scheme.of(settings);
        return "HMAC-" + scheme.algorithm().name() + " of the body, " + scheme.encoding().name().toLowerCase(Locale.ROOT)
                + " (" + scheme.signatureHeader()
                + (scheme.prefix() == null ? ")" : ", after “" + scheme.prefix() + "”)");
    }

    @Override
    public Set<String> settingNames() {
        return Set.of(SIGNATURE_HEADER, ALGORITHM, ENCODING, SIGNATURE_PREFIX, EVENT_ID_HEADER, EVENT_ID_POINTER,
                TYPE_HEADER, TYPE_POINTER);
    }

    @Override
    public void checkSettings(Map<String, String> settings) throws InvalidSetting {
        Scheme.of(settings);
    }

    /**
     * The sender's retry window when the id or the type comes from a header, which the signature (of the body) does
     * not cover; zero when both come from the body.
     */
    @Override
    public Duration defaultBodyDedupWindow(Map<String, String> settings) {
        Scheme scheme = schemes.computeIfAbsent(settings, Scheme::of);
        return scheme.idHeader() != null || scheme.typeHeader() != null ? retryWindow() : Duration.ZERO;
    }

    /**
     * Each source's scheme, parsed once: its settings are fixed at start-up, and parsing them (patterns, enums) on
     * every delivery cost work on the hot path for nothing. Keyed by the settings themselves, so sources with equal
     * settings share one.
     */
    private final Map<Map<String, String>, Scheme> schemes = new ConcurrentHashMap<>();

    @Override
    public VerifiedDelivery verify(Delivery delivery, Source source) throws RejectedDelivery {
        Scheme scheme = schemes.computeIfAbsent(source.settings(), Scheme::of);
        String name = scheme.signatureHeader();
        String header = Hmac.requiredHeader(delivery, name);
        String prefix = scheme.prefix() == null ? "" : scheme.prefix();
        byte[] given = Hmac.wellFormed(
                header.startsWith(prefix) ? decode(header.substring(prefix.length()), scheme) : null, name,
                (prefix.isEmpty() ? "" : "'" + prefix + "' followed by ")
                        + (scheme.encoding() == Encoding.HEX
                        ? scheme.algorithm().bytes * 2 + " hexadecimal digits"
                        : "the base64 of " + scheme.algorithm().bytes + " bytes"));
        if (!Hmac.matches(source, scheme.algorithm().jca, given, delivery.body())) {
            throw new RejectedDelivery(Rejection.INVALID_SIGNATURE,
                    name + " does not match the body under any configured secret");
        }
        Set<String> pointers = scheme.pointers();
        Map<String, String> found = pointers.isEmpty() ? Map.of() : JsonFields.values(delivery.body(), pointers);
        String id = scheme.idHeader() != null ? delivery.header(scheme.idHeader()) : found.get(scheme.idPointer());
        if (id == null || id.isEmpty()) {
            throw new RejectedDelivery(Rejection.MISSING_EVENT_ID, scheme.idHeader() != null
                    ? "the " + scheme.idHeader() + " header is missing"
                    : "the JSON body has no string or number at " + scheme.idPointer());
        }
        String type = scheme.typeHeader() != null ? delivery.header(scheme.typeHeader())
                : scheme.typePointer() != null ? found.get(scheme.typePointer()) : null;
        return VerifiedDelivery.event(id, type == null ? "" : type, delivery.retain(retained(scheme),
                Set.of(name.toLowerCase(Locale.ROOT))));
    }

    private static byte[] decode(String text, Scheme scheme) {
        int bytes = scheme.algorithm().bytes;
        if (scheme.encoding() == Encoding.HEX) {
            return Hmac.hexOrNull(text, bytes);
        }
        try {
            byte[] decoded = Base64.getDecoder().decode(text);
            return decoded.length == bytes ? decoded : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static List<String> retained(Scheme scheme) {
        var names = new ArrayList<String>(5);
        names.add(scheme.signatureHeader());
        if (scheme.idHeader() != null) {
            names.add(scheme.idHeader());
        }
        if (scheme.typeHeader() != null) {
            names.add(scheme.typeHeader());
        }
        names.add("Content-Type");
        names.add("User-Agent");
        return names;
    }
}
