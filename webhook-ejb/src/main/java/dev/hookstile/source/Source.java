package dev.hookstile.source;

import dev.hookstile.api.Text;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A named endpoint, {@code /webhooks/{name}}, whose deliveries one provider signs.
 *
 * @param name      the path segment, lower case
 * @param provider  verifies deliveries and extracts the event id and type
 * @param secrets   every secret currently valid; more than one during a rotation
 * @param tolerance how far a signed timestamp may lie from our clock, for providers that sign one
 * @param settings    provider-specific settings ({@code hookstile.sources.<name>.<key>})
 * @param maxAttempts processing attempts (in-process retries and redeliveries together) before an event is dead
 * @param retries     in-process retries of a transient failure within one delivery, before the broker's back-off
 * @param bodyDedupWindow how long a processed body makes a repeat of it under another event id {@code ignored};
 *                        zero deduplicates on the event id alone ({@link Sources} defaults it to the provider's)
 * @param retention   how long a completed or ignored event is kept; zero keeps them all
 * @param destination where processed events are forwarded through the outbox; {@code null} for nowhere
 * @param backOffice  the queue or topic processed events are published to; {@code null} for none
 * @param orderKey    the JSON pointer of the body's ordering key ({@code _ORDER_KEY}); {@code null} orders nothing
 */
public record Source(String name, Provider provider, List<byte[]> secrets, Duration tolerance,
                     Map<String, String> settings, int maxAttempts, int retries, Duration bodyDedupWindow,
                     Duration retention, Destination destination, BackOfficeDestination backOffice,
                     String orderKey) {

    public static final int DEFAULT_MAX_ATTEMPTS = 8;
    public static final int DEFAULT_RETRIES = 2;
    /** The most in-process retries a source may ask for: the Fault Tolerance cap on {@code TryRetries}. */
    public static final int MAX_RETRIES = 10;
    public static final Duration DEFAULT_RETENTION = Duration.ofDays(30);

    public Source {
        secrets = List.copyOf(secrets);
        settings = Map.copyOf(settings);
        requireMaxAttempts(maxAttempts);
        requireRetries(retries);
        if (bodyDedupWindow.isNegative()) {
            throw new IllegalArgumentException("bodyDedupWindow must not be negative");
        }
        if (retention.isNegative()) {
            throw new IllegalArgumentException("retention must not be negative");
        }
        if (orderKey != null && !orderKey.startsWith("/")) {
            throw new IllegalArgumentException("orderKey must be a JSON pointer, starting with '/'");
        }
    }

    /**
     * The one check of an attempt allowance, a source's or the default for every source: {@code Sources} puts the
     * setting's name in front of the message.
     */
    public static int requireMaxAttempts(int maxAttempts) {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("must be at least 1, not " + maxAttempts);
        }
        return maxAttempts;
    }

    /**
     * The one check of in-process retries, a source's or the default for every source (as {@link #requireMaxAttempts}).
     */
    public static int requireRetries(int retries) {
        if (retries < 0 || retries > MAX_RETRIES) {
            throw new IllegalArgumentException("must be between 0 and " + MAX_RETRIES + ", not " + retries);
        }
        return retries;
    }

    /**
     * The ordering key of a body: the string or number at {@link #orderKey()}, {@code null} when the source orders
     * nothing, the value is missing or not a scalar, or the body is not JSON (such events are processed unordered).
     * Keys longer than an event id are cut to that length: keys sharing their first 255 characters are then
     * ordered as one, which costs parallelism, never order.
     */
    public String orderKeyOf(byte[] body) {
        if (orderKey == null) {
            return null;
        }
        String key = Provider.jsonValueAt(body, orderKey);
        return key == null || key.length() <= MAX_ORDER_KEY_LENGTH ? key : key.substring(0, MAX_ORDER_KEY_LENGTH);
    }

    /** The longest order key stored as it is. */
    static final int MAX_ORDER_KEY_LENGTH = Text.MAX_STORED;

    public Optional<String> setting(String key) {
        return Optional.ofNullable(settings.get(key));
    }

    /** How many public keys ({@code _PUBLIC_KEYS}, Standard Webhooks' {@code v1a}) verify its deliveries. */
    public int publicKeyCount() {
        return setting("public-keys").map(keys -> (int) Arrays.stream(keys.split(","))
                .filter(key -> !key.isBlank()).count()).orElse(0);
    }

    @Override
    public String toString() {
        // Never print the secrets.
        return "Source[" + name + ", provider=" + provider.name() + ", secrets=" + secrets.size()
                + ", tolerance=" + tolerance.toSeconds() + "s, maxAttempts=" + maxAttempts + ", retries=" + retries
                + (bodyDedupWindow.isZero() ? "" : ", bodyDedupWindow=" + bodyDedupWindow.toSeconds() + "s")
                + ", retention=" + (retention.isZero() ? "forever" : retention.toDays() + "d")
                + (destination == null ? "" : ", destination=" + destination)
                + (backOffice == null ? "" : ", backOffice=" + backOffice)
                + (orderKey == null ? "" : ", orderKey=" + orderKey) + "]";
    }
}
