package dev.hookstile.ingest.boundary;

import dev.hookstile.provider.boundary.Rejection;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

import java.util.EnumMap;
import java.util.Map;

/**
 * Counts what ingest answers, for {@code GET /metrics?scope=application}: refused deliveries by reason
 * ({@code hookstile_deliveries_rejected_total{reason="invalid-signature"}}), accepted and duplicate events. The
 * messages that carried the accepted ones to the queue are the queue's count ({@code EventQueue}).
 *
 * <p>Tags come only from a fixed set (the rejection reasons), never from the request: a hostile sender must not be
 * able to create a metric per made-up source name. The counters are resolved once, so counting is a field read and
 * an atomic add.
 */
@ApplicationScoped
public class DeliveryMetrics {

    @Inject
    MetricRegistry registry;

    private final Map<Rejection, Counter> rejected = new EnumMap<>(Rejection.class);
    private Counter accepted;
    private Counter duplicate;

    /** Registered at deployment, so the counters are at 0 before the first delivery rather than absent. */
    void eager(@Observes @Initialized(ApplicationScoped.class) Object applicationStarted) {
        // Observing the event instantiates the bean.
    }

    @PostConstruct
    void register() {
        var rejectedMetadata = Metadata.builder().withName("hookstile.deliveries.rejected")
                .withDescription("Deliveries refused, by reason (the problem type's last segment)").build();
        for (Rejection reason : Rejection.values()) {
            rejected.put(reason, registry.counter(rejectedMetadata, new Tag("reason", reason.slug())));
        }
        accepted = registry.counter(Metadata.builder().withName("hookstile.events.accepted")
                .withDescription("Events queued durably for processing").build());
        duplicate = registry.counter(Metadata.builder().withName("hookstile.events.duplicate")
                .withDescription("Events answered as duplicates at ingest, not queued again").build());
    }

    public void rejected(Rejection reason) {
        rejected.get(reason).inc();
    }

    void received(Receipt receipt) {
        for (Receipt.Outcome outcome : receipt.events()) {
            (Receipt.ACCEPTED.equals(outcome.status()) ? accepted : duplicate).inc();
        }
    }
}
