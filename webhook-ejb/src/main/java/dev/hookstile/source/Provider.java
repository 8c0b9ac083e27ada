package dev.hookstile.source;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * One webhook sender's signing scheme: verifies a delivery on its raw bytes and extracts the event id and type.
 * A real SPI with one implementation per provider, registered in {@link Providers}.
 *
 * <p>Implementations are stateless and thread-safe, depend only on the stable fields of a payload (id, type,
 * timestamp) and never modify the body.
 */
public interface Provider {

    /**
     * The string or number (as text) at a JSON pointer of a body, read without building a tree; {@code null} when
     * there is none, it is not a scalar, or the body is not a JSON object.
     */
    static String jsonValueAt(byte[] body, String pointer) {
        return JsonFields.valueAt(body, pointer);
    }

    /** The name used in {@code HOOKSTILE_SOURCES_<NAME>_PROVIDER}. */
    String name();

    /**
     * What this provider signs and how, in the words an operator reads ({@code GET /api/sources}, the console's event
     * page): the algorithm, the signed content and the header that carries the signature. Here, next to the code that
     * verifies it, so no other place has to know it; never a signature or a secret.
     *
     * @param settings the source's provider-specific settings, checked
     */
    String signingScheme(Map<String, String> settings);

    /**
     * Verifies the signature and returns the event's identity.
     *
     * @throws RejectedDelivery with the precise reason when the delivery must not be accepted
     */
    VerifiedDelivery verify(Delivery delivery, Source source) throws RejectedDelivery;

    /**
     * How long after an event the sender may still deliver it again (its retries, or a redelivery an operator can
     * trigger). The retention never deletes an event sooner: a copy arriving later would be processed again.
     */
    default Duration retryWindow() {
        return Duration.ofDays(7);
    }

    /**
     * The body deduplication a source of this provider gets unless it sets its own
     * ({@code hookstile.sources.<name>.body-dedup-window-seconds}): at least the sender's retry window when the event
     * id or the type (which picks the handlers) lies outside the signature, since a captured delivery can then be
     * sent again under a fresh id or another type and still verify; zero when the signature covers both.
     *
     * @param settings the source's provider-specific settings, checked
     */
    default Duration defaultBodyDedupWindow(Map<String, String> settings) {
        return Duration.ZERO;
    }

    /**
     * How far a signed time may lie from our clock unless the source sets its own
     * ({@code hookstile.sources.<name>.tolerance-seconds}).
     */
    default Duration defaultTolerance() {
        return DEFAULT_TOLERANCE;
    }

    /** Five minutes: what Stripe, Slack and Standard Webhooks recommend for their signed timestamps. */
    Duration DEFAULT_TOLERANCE = Duration.ofSeconds(300);

    /**
     * The SHA-256 that body deduplication compares: of what the signature covers of the body. The raw bytes for
     * providers that sign the bytes; a provider that signs a decoded form (Twilio's sorted form fields) digests that
     * form, or a re-encoding of the same signed content would pass as a new body. Called by processing, never by
     * ingest.
     */
    default byte[] bodyFingerprint(byte[] body) {
        return sha256(body);
    }

    /** Whether one delivery can carry several events, all in one signed body. */
    default boolean deliversBatches() {
        return false;
    }

    /** Turns a configured secret into HMAC key bytes; throws {@link IllegalArgumentException} if it is malformed. */
    default byte[] decodeSecret(String secret) {
        return secret.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Whether these settings alone verify a delivery (public keys), so that a source needs no secret; the secrets,
     * when there are some too, still count.
     */
    default boolean verifiesWithoutSecrets(Map<String, String> settings) {
        return false;
    }

    /** Extra per-source settings this provider reads ({@code hookstile.sources.<name>.<setting>}). */
    default Set<String> settingNames() {
        return Set.of();
    }

    /**
     * Checks a source's provider-specific settings at start-up, so a mistake stops the deployment instead of
     * refusing every delivery.
     *
     * @throws InvalidSetting naming the setting to fix
     */
    default void checkSettings(Map<String, String> settings) throws InvalidSetting {
    }

    /**
     * Answers a {@code GET} to the source's endpoint: the subscription handshake of providers that have one.
     *
     * @param query the query parameters (first value of each)
     * @throws RejectedDelivery {@link Rejection#METHOD_NOT_ALLOWED} for providers without a handshake, or the reason
     *                          the handshake is refused
     */
    default Answer handshake(Map<String, String> query, Source source) throws RejectedDelivery {
        throw new RejectedDelivery(Rejection.METHOD_NOT_ALLOWED,
                "provider " + name() + " receives webhooks with POST only");
    }

    /** The SHA-256 of these bytes. */
    static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
