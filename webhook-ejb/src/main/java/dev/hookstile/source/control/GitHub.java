package dev.hookstile.source.control;

import dev.hookstile.source.Delivery;
import dev.hookstile.source.Provider;
import dev.hookstile.source.RejectedDelivery;
import dev.hookstile.source.Rejection;
import dev.hookstile.source.VerifiedDelivery;
import dev.hookstile.source.Source;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * GitHub: {@code X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>}; the event id is the
 * {@code X-GitHub-Delivery} GUID (the same on a redelivery), the type is {@code X-GitHub-Event}.
 */
final class GitHub implements Provider {

    private static final List<String> RETAINED = List.of("X-GitHub-Event", "X-GitHub-Delivery", "X-GitHub-Hook-ID",
            "X-GitHub-Hook-Installation-Target-ID", "X-GitHub-Hook-Installation-Target-Type", HubSignature.HEADER,
            "Content-Type", "User-Agent");
    private static final Set<String> SIGNATURES = HubSignature.REDACTED;

    @Override
    public String name() {
        return "github";
    }

    @Override
    public String signingScheme(Map<String, String> settings) {
        return "HMAC-SHA256 of the body (X-Hub-Signature-256)";
    }

    /** GitHub does not retry by itself; a delivery can be redelivered by hand for 3 days. */
    @Override
    public Duration retryWindow() {
        return Duration.ofDays(3);
    }

    /** {@code X-GitHub-Delivery} and {@code X-GitHub-Event} are outside the signature, which covers the body alone. */
    @Override
    public Duration defaultBodyDedupWindow(Map<String, String> settings) {
        return retryWindow();
    }

    @Override
    public VerifiedDelivery verify(Delivery delivery, Source source) throws RejectedDelivery {
        HubSignature.verify(delivery, source);
        String id = delivery.header("X-GitHub-Delivery");
        if (id == null || id.isEmpty()) {
            throw new RejectedDelivery(Rejection.MISSING_EVENT_ID, "the X-GitHub-Delivery header is missing");
        }
        String type = delivery.header("X-GitHub-Event");
        return VerifiedDelivery.event(id, type == null ? "" : type, delivery.retain(RETAINED, SIGNATURES));
    }
}
