package dev.hookstile.ingest.boundary;

import dev.hookstile.ingest.Outcome;
import dev.hookstile.ingest.control.Tally;
import dev.hookstile.metrics.boundary.Counter;
import dev.hookstile.metrics.boundary.Family;
import dev.hookstile.metrics.boundary.Histogram;
import dev.hookstile.metrics.boundary.Metrics;
import dev.hookstile.refusal.Refusal;
import dev.hookstile.refusal.boundary.RefusalLog;
import dev.hookstile.source.Rejection;
import dev.hookstile.source.Source;
import dev.hookstile.source.boundary.Sources;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import java.util.EnumMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Counts what ingest answers, for {@code GET /metrics}: refused deliveries by reason
 * ({@code hookstile_deliveries_rejected_total{reason="invalid-signature"}}) and by source
 * ({@code hookstile_deliveries_rejected_by_source_total{source}}), accepted and duplicate events by source,
 * answers {@code 503} by reason, and how long each answer took ({@code hookstile_ingest_ack_seconds{outcome}}). The
 * messages that carried the accepted ones to the queue are the queue's count ({@code EventQueue}).
 *
 * <p>Tags come only from fixed or configured sets (the rejection reasons, the configured sources), never from the
 * request: a hostile sender must not be able to create a series per made-up source name. Counting is a map lookup
 * at most and an atomic add.
 *
 * <p>The same outcomes are also counted per source and 10-second bucket ({@link Tally}: a map lookup and a
 * {@code LongAdder} increment) for the operator overview; {@link IngestBuckets} writes them to the database off the
 * request path. Refusals are counted under their source when it is configured, under {@value #OTHER} otherwise (a
 * made-up source name never becomes a row).
 */
@ApplicationScoped
public class DeliveryMetrics {

    /** The bucket source of refusals no configured source can be named for: not a name a source can have. */
    public static final String OTHER = RefusalLog.OTHER;

    @Inject
    Metrics metrics;

    @Inject
    Sources sources;

    @Inject
    RefusalLog refusals;

    private final Tally tally = new Tally();

    private final Map<Rejection, Counter> rejected = new EnumMap<>(Rejection.class);
    private final Map<Outcome, Histogram> acks = new EnumMap<>(Outcome.class);
    private Family<Counter> rejectedBySource;
    private Family<Counter> accepted;
    private Family<Counter> duplicate;
    private Family<Counter> unavailable;

    /** Registered at deployment, so the counters are at 0 before the first delivery rather than absent. */
    void eager(@Observes @Initialized(ApplicationScoped.class) Object applicationStarted) {
        // Observing the event instantiates the bean.
    }

    @PostConstruct
    void register() {
        var rejectedFamily = metrics.counter("hookstile_deliveries_rejected_total",
                "Deliveries refused, by reason (the problem type's last segment)", "reason");
        for (Rejection reason : Rejection.values()) {
            rejected.put(reason, rejectedFamily.labels(reason.slug()));
        }
        rejectedBySource = metrics.counter("hookstile_deliveries_rejected_by_source_total",
                "Deliveries refused, by the configured source they named (" + OTHER + ": any other name)", "source");
        rejectedBySource.labels(OTHER);
        accepted = metrics.counter("hookstile_events_accepted_total",
                "Events queued durably for processing, by source", "source");
        duplicate = metrics.counter("hookstile_events_duplicate_total",
                "Events answered as duplicates at ingest, not queued again, by source", "source");
        unavailable = metrics.counter("hookstile_ingest_unavailable_total",
                "Deliveries answered 503 (nothing accepted; the sender retries), by the problem type's last segment",
                "reason");
        for (Source source : sources.all()) {
            rejectedBySource.labels(source.name());
            accepted.labels(source.name());
            duplicate.labels(source.name());
        }
        for (Rejection reason : Rejection.values()) {
            if (reason.status() == 503) {
                unavailable.labels(reason.slug());
            }
        }
        unavailable.labels(BROKER_UNAVAILABLE);
        var ackFamily = metrics.histogram("hookstile_ingest_ack_seconds",
                "From a delivery's arrival to its answer, by what it was answered", Metrics.LATENCY_BOUNDS, "outcome");
        for (Outcome outcome : Outcome.values()) {
            acks.put(outcome, ackFamily.labels(outcome.label()));
        }
    }

    /** The problem type of a delivery the broker could not take. */
    public static final String BROKER_UNAVAILABLE = "broker-unavailable";

    /** How long answering a delivery took, from its arrival ({@link System#nanoTime()}). */
    public void answered(Outcome outcome, long arrivedNanos) {
        acks.get(outcome).observeNanos(System.nanoTime() - arrivedNanos);
    }

    /** A delivery answered {@code 503} by the hand-off: the broker did not take it. */
    public void brokerUnavailable() {
        unavailable.labels(BROKER_UNAVAILABLE).inc();
    }

    /**
     * A delivery to the source named in its path refused; counted under that source if it is configured, and kept
     * as an example of its reason when it is one of the minute's first ({@link RefusalLog}).
     *
     * @param example builds what is kept of the request, called only if it is kept
     */
    public void rejected(String sourceName, Rejection reason, Supplier<Refusal> example) {
        count(reason);
        String source = sourceName != null && sources.find(sourceName).isPresent() ? sourceName : OTHER;
        tally.count(source, Outcome.REJECTED, System.currentTimeMillis());
        rejectedBySource.labels(source).inc();
        refusals.refused(source, reason, example);
    }

    private void count(Rejection reason) {
        rejected.get(reason).inc();
        if (reason.status() == 503) {
            unavailable.labels(reason.slug()).inc();
        }
    }

    void received(Receipt receipt) {
        long now = System.currentTimeMillis();
        Counter acceptedHere = accepted.labels(receipt.source());
        Counter duplicateHere = duplicate.labels(receipt.source());
        for (Receipt.Event event : receipt.events()) {
            (event.outcome() == Outcome.ACCEPTED ? acceptedHere : duplicateHere).inc();
            tally.count(receipt.source(), event.outcome(), now);
        }
    }

    /** The per-source counts of the overview, not yet written to the database. */
    public Tally tally() {
        return tally;
    }
}
