package dev.hookstile.provider.control;

import dev.hookstile.source.control.Source;

import java.util.List;
import java.util.Set;

/**
 * GitHub: {@code X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>}; the event id is the
 * {@code X-GitHub-Delivery} GUID (the same on a redelivery), the type is {@code X-GitHub-Event}.
 */
final class GitHub implements Provider {

    static final String SIGNATURE = "X-Hub-Signature-256";
    private static final String PREFIX = "sha256=";
    private static final List<String> RETAINED = List.of("X-GitHub-Event", "X-GitHub-Delivery", "X-GitHub-Hook-ID",
            "X-GitHub-Hook-Installation-Target-ID", "X-GitHub-Hook-Installation-Target-Type", SIGNATURE,
            "Content-Type", "User-Agent");
    private static final Set<String> SIGNATURES = Set.of("x-hub-signature-256");

    @Override
    public String name() {
        return "github";
    }

    @Override
    public VerifiedDelivery verify(Delivery delivery, Source source) throws RejectedDelivery {
        String header = delivery.header(SIGNATURE);
        if (header == null) {
            throw new RejectedDelivery(Rejection.MISSING_SIGNATURE, "the " + SIGNATURE + " header is missing");
        }
        byte[] given = header.startsWith(PREFIX) ? Hmac.hexOrNull(header.substring(PREFIX.length()), 32) : null;
        if (given == null) {
            throw new RejectedDelivery(Rejection.MALFORMED_SIGNATURE,
                    SIGNATURE + " must be 'sha256=' followed by 64 hexadecimal digits");
        }
        boolean valid = false;
        for (byte[] secret : source.secrets()) {
            valid |= Hmac.equal(Hmac.compute(Hmac.SHA256, secret, delivery.body()), given);
        }
        if (!valid) {
            throw new RejectedDelivery(Rejection.INVALID_SIGNATURE,
                    SIGNATURE + " does not match the body under any configured secret");
        }
        String id = delivery.header("X-GitHub-Delivery");
        if (id == null || id.isEmpty()) {
            throw new RejectedDelivery(Rejection.MISSING_EVENT_ID, "the X-GitHub-Delivery header is missing");
        }
        String type = delivery.header("X-GitHub-Event");
        return VerifiedDelivery.event(id, type == null ? "" : type, delivery.retain(RETAINED, SIGNATURES));
    }
}
