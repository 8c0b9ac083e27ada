package dev.hookstile.provider.control;

import dev.hookstile.source.control.Source;

import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * One webhook sender's signing scheme: verifies a delivery on its raw bytes and extracts the event id and type.
 * A real SPI with one implementation per provider, registered in {@link Providers}.
 *
 * <p>Implementations are stateless and thread-safe, depend only on the stable fields of a payload (id, type,
 * timestamp) and never modify the body.
 */
public interface Provider {

    /** The name used in {@code HOOKSTILE_SOURCES_<NAME>_PROVIDER}. */
    String name();

    /**
     * Verifies the signature and returns the event's identity.
     *
     * @throws RejectedDelivery with the precise reason when the delivery must not be accepted
     */
    VerifiedDelivery verify(Delivery delivery, Source source) throws RejectedDelivery;

    /** Turns a configured secret into HMAC key bytes; throws {@link IllegalArgumentException} if it is malformed. */
    default byte[] decodeSecret(String secret) {
        return secret.getBytes(StandardCharsets.UTF_8);
    }

    /** Extra per-source settings this provider reads ({@code hookstile.sources.<name>.<setting>}). */
    default Set<String> settingNames() {
        return Set.of();
    }
}
