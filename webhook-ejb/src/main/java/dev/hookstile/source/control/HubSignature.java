package dev.hookstile.source.control;

import dev.hookstile.source.Delivery;
import dev.hookstile.source.RejectedDelivery;
import dev.hookstile.source.Rejection;
import dev.hookstile.source.Source;

import java.util.Set;

/**
 * {@code X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>}, the scheme GitHub and Meta share (both inherit
 * it from PubSubHubbub); kept in one place so a fix to one provider's check cannot miss the other's.
 */
final class HubSignature {

    static final String HEADER = "X-Hub-Signature-256";
    /** The header's key as {@link Delivery#retain} stores it, for redaction. */
    static final Set<String> REDACTED = Set.of("x-hub-signature-256");
    private static final String PREFIX = "sha256=";

    private HubSignature() {
    }

    /**
     * Passes when the header matches the body under any configured secret.
     *
     * @throws RejectedDelivery when the header is missing, malformed or matches no secret
     */
    static void verify(Delivery delivery, Source source) throws RejectedDelivery {
        String header = Hmac.requiredHeader(delivery, HEADER);
        byte[] given = Hmac.wellFormed(
                header.startsWith(PREFIX) ? Hmac.hexOrNull(header.substring(PREFIX.length()), 32) : null,
                HEADER, "'sha256=' followed by 64 hexadecimal digits");
        if (!Hmac.matches(source, Hmac.SHA256, given, delivery.body())) {
            throw new RejectedDelivery(Rejection.INVALID_SIGNATURE,
                    HEADER + " does not match the body under any configured secret");
        }
    }
}
