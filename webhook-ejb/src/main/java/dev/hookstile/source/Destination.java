package dev.hookstile.source;

import dev.hookstile.platform.Redacted;

import java.net.URI;
import java.security.PrivateKey;
import java.net.URISyntaxException;
import java.util.Base64;
import java.util.List;

/**
 * Where a source's processed events are forwarded, through the outbox: an HTTP endpoint, the Standard Webhooks
 * secret ({@code v1}, HMAC) or signing key ({@code v1a}, Ed25519: the destination verifies with a public key it cannot
 * sign with) the requests are signed with, or both while the destination moves from one to the other, and which event
 * types go (all when empty; {@code invoice.*} matches a prefix).
 *
 * @param secret     the HMAC key, or {@code null} when only the signing key signs
 * @param signingKey the Ed25519 key, or {@code null}
 * @param filter     a JSON fragment an event's body must contain to be forwarded ({@code _DESTINATION_FILTER}), or
 *                   {@code null} for every body
 * @param pace       how fast and how many at once it is sent to ({@code _DESTINATION_RATE},
 *                   {@code _DESTINATION_CONCURRENCY}); {@link Pace#UNLIMITED} for the relay's defaults
 */
public record Destination(URI url, byte[] secret, PrivateKey signingKey, List<String> types, JsonMatch filter,
                          Pace pace) {

    /**
     * The fewest key bytes a signing secret may have: a shorter key is guessed, and with it every request signed with
     * it forged (the Standard Webhooks libraries generate 24 to 64 bytes).
     */
    public static final int MIN_KEY_BYTES = 16;

    public Destination {
        types = List.copyOf(types);
        pace = pace == null ? Pace.UNLIMITED : pace;
        if (secret == null && signingKey == null) {
            throw new IllegalArgumentException("a destination signs with a secret, a signing key or both");
        }
    }

    public Destination(URI url, byte[] secret, List<String> types) {
        this(url, secret, null, types, null, null);
    }

    /**
     * How fast forwardings go to a destination, whatever the number of instances: at most {@code perSecond} a second
     * (a bucket of as many tokens, at least one, in the database: one second of burst), and at most
     * {@code concurrency} requests at once from one instance.
     *
     * @param perSecond   0 for no limit
     * @param concurrency 0 for the relay's own ({@code HOOKSTILE_OUTBOX_CONCURRENCY})
     */
    public record Pace(double perSecond, int concurrency) {

        public static final Pace UNLIMITED = new Pace(0, 0);
        public static final int MAX_CONCURRENCY = 64;

        public Pace {
            if (perSecond < 0 || Double.isNaN(perSecond) || Double.isInfinite(perSecond)) {
                throw new IllegalArgumentException("a rate is a positive number of forwardings per second");
            }
            if (concurrency < 0 || concurrency > MAX_CONCURRENCY) {
                throw new IllegalArgumentException("must be 1 to " + MAX_CONCURRENCY + " requests at once");
            }
        }

        /**
         * {@code 50/s}, {@code 1000/min} or {@code 3600/h}: a whole number of forwardings, at least 1, per unit.
         *
         * @throws IllegalArgumentException saying what is wrong, to follow the setting's name
         */
        public static double perSecond(String text) {
            String[] parts = text.trim().split("/", 2);
            long count;
            try {
                count = Long.parseLong(parts[0].trim());
            } catch (NumberFormatException e) {
                count = -1;
            }
            double seconds = parts.length < 2 ? -1 : switch (parts[1].trim()) {
                case "s" -> 1;
                case "min" -> 60;
                case "h" -> 3600;
                default -> -1;
            };
            if (count < 1 || count > 1_000_000 || seconds < 0) {
                throw new IllegalArgumentException("must be a number of forwardings per s, min or h, e.g. 50/s or"
                        + " 1000/min");
            }
            return count / seconds;
        }

        /** The bucket's size: one second's worth, at least one forwarding. */
        public double burst() {
            return Math.max(1, perSecond);
        }

        public boolean limited() {
            return perSecond > 0;
        }
    }

    /**
     * An absolute {@code http} or {@code https} URL, as a destination's or the notification endpoint's setting gives
     * it.
     *
     * @throws IllegalArgumentException saying what is wrong with it, to follow the setting's name
     */
    public static URI url(String text) {
        URI uri;
        try {
            uri = new URI(text.trim());
        } catch (URISyntaxException e) {
            // The reason without the text: a URL may carry a token in its path (a chat's incoming webhook does).
            throw new IllegalArgumentException("is not a URL: " + e.getReason()
                    + (e.getIndex() < 0 ? "" : " at index " + e.getIndex()));
        }
        if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
            throw new IllegalArgumentException("must be an absolute http or https URL");
        }
        return uri;
    }

    /**
     * The key of a Standard Webhooks secret, {@code whsec_} followed by base64 (the prefix may be left out), of at
     * least {@value #MIN_KEY_BYTES} bytes.
     *
     * @throws IllegalArgumentException saying what is wrong with it, never quoting it, to follow the setting's name
     */
    public static byte[] secretKey(String secret) {
        String trimmed = secret.trim();
        byte[] key;
        try {
            key = Base64.getDecoder().decode(trimmed.startsWith("whsec_") ? trimmed.substring(6) : trimmed);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("must be whsec_ followed by base64");
        }
        if (key.length == 0) {
            // An empty key signs nothing: every request to the destination would fail at the relay.
            throw new IllegalArgumentException("has no key bytes: it must be whsec_ followed by base64");
        }
        if (key.length < MIN_KEY_BYTES) {
            throw new IllegalArgumentException("has " + key.length + " key bytes, fewer than " + MIN_KEY_BYTES
                    + ": a short key is guessed (generate one with: echo whsec_$(openssl rand -base64 32))");
        }
        return key;
    }

    /** Whether an event with this body is forwarded, its type being one: its filter's answer (every body without one). */
    public boolean forwardsBody(byte[] body) {
        return filter == null || filter.matches(body);
    }

    /** Whether an event of this type is forwarded. */
    public boolean forwards(String type) {
        return matches(types, type);
    }

    /** Whether a type is among the patterns (all types when there are none; {@code invoice.*} matches a prefix). */
    static boolean matches(List<String> patterns, String type) {
        return patterns.isEmpty() || patterns.stream().anyMatch(pattern -> pattern.endsWith("*")
                ? type.startsWith(pattern.substring(0, pattern.length() - 1))
                : pattern.equals(type));
    }

    @Override
    public String toString() {
        // Never the secret, nor credentials or a token in the URL (its path may be one): this is what logs show.
        return Redacted.endpoint(url.toString()) + (types.isEmpty() ? "" : " " + types)
                + (filter == null ? "" : " if the body contains " + filter.json());
    }
}
