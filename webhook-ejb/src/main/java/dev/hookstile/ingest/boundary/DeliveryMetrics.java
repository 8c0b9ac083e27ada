package dev.hookstile.ingest.boundary;

import dev.hookstile.ingest.control.Tally;
import dev.hookstile.provider.boundary.Rejection;
import dev.hookstile.source.boundary.Sources;
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
 *
 * <p>The same outcomes are also counted per source and 10-second bucket ({@link Tally}: a map lookup and a
 * {@code LongAdder} increment) for the operator overview; {@link IngestBuckets} writes them to the database off the
 * request path. Refusals are counted under their source when it is configured, under {@value #OTHER} otherwise (a
 * made-up source name never becomes a row).
 */
@ApplicationScoped
public class DeliveryMetrics {

    /** The bucket source of refusals no configured source can be named for: not a name a source can have. */
    public static final String OTHER = "_other";

    @Inject
    MetricRegistry registry;

    @Inject
    Sources sources;

    private final Tally tally = new Tally();

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

    /** A delivery refused before its source was known (or for no configured source). */
    public void rejected(Rejection reason) {
        rejected.get(reason).inc();
        tally.count(OTHER, Tally.Outcome.REJECTED, System.currentTimeMillis());
    }

    /** A delivery to the source named in its path refused; counted under that source if it is configured. */
    public void rejected(String sourceName, Rejection reason) {
        rejected.get(reason).inc();
        String source = sourceName != null && sources.find(sourceName).isPresent() ? sourceName : OTHER;
        tally.count(source, Tally.Outcome.REJECTED, System.currentTimeMillis());
    }

    void received(Receipt receipt) {
        long now = System.currentTimeMillis();
        for (Receipt.Outcome outcome : receipt.events()) {
            boolean isAccepted = Receipt.ACCEPTED.equals(outcome.status());
            (isAccepted ? accepted : duplicate).inc();
            tally.count(receipt.source(), isAccepted ? Tally.Outcome.ACCEPTED : Tally.Outcome.DUPLICATE, now);
        }
    }

    /** The per-source counts of the overview, not yet written to the database. */
    public Tally tally() {
        return tally;
    }
}
