package dev.hookstile.ingest.boundary.http;

import dev.hookstile.ingest.boundary.DeliveryMetrics;
import dev.hookstile.source.Rejection;
import dev.hookstile.web.boundary.RefusedRequests;
import dev.hookstile.web.boundary.RuntimeError;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/**
 * A sender's mistake the JAX-RS runtime caught before {@link WebhooksResource} ran is still a refused delivery,
 * counted by reason, and under its source for the overview when the path names a configured one
 * ({@link DeliveryMetrics} checks).
 */
@ApplicationScoped
public class RuntimeRefusals {

    private static final String WEBHOOKS = "webhooks";

    @Inject
    DeliveryMetrics metrics;

    void count(@Observes RuntimeError error) {
        if (error.path() == null || !error.path().startsWith(WEBHOOKS)) {
            return;
        }
        Rejection reason = switch (error.status()) {
            case 405 -> Rejection.METHOD_NOT_ALLOWED;
            case 415 -> Rejection.UNSUPPORTED_MEDIA_TYPE;
            case 413 -> Rejection.PAYLOAD_TOO_LARGE;
            // not a delivery problem of the sender's (404 for a path outside /webhooks/{source} never gets here)
            default -> null;
        };
        if (reason != null) {
            String source = error.path().startsWith(WEBHOOKS + "/") ? error.path().substring(WEBHOOKS.length() + 1)
                    : null;
            metrics.rejected(source, reason, RefusedRequests.of(error.request(), source, reason, error.detail(), null));
        }
    }
}
