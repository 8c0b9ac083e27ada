package dev.hookstile.processing.control;

import dev.hookstile.metrics.boundary.Counter;
import dev.hookstile.metrics.boundary.Family;
import dev.hookstile.metrics.boundary.Histogram;
import dev.hookstile.metrics.boundary.Metrics;
import dev.hookstile.source.Source;
import dev.hookstile.source.boundary.Sources;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Counts each try once by its outcome ({@code hookstile_events_processed_total{source,outcome}}: an event retried twice
 * and then completed adds two {@code retried} and one {@code completed}), times each try
 * ({@code hookstile_processing_try_seconds{outcome}}) and each completed event from its receipt
 * ({@code hookstile_event_end_to_end_seconds{source}}). Counted after the try's transaction committed, by the caller
 * of {@link EventTry}: a try that rolls back is counted as the failure it became.
 */
@ApplicationScoped
public class ProcessingMetrics {

    /** A try's outcome, as counted. */
    enum Counted {
        COMPLETED, IGNORED, RETRIED, DEAD;

        final String tag = name().toLowerCase(Locale.ROOT);
    }

    @Inject
    Metrics metrics;

    @Inject
    Sources sources;

    private Family<Counter> processed;
    private final Map<Counted, Histogram> tries = new EnumMap<>(Counted.class);
    private Family<Histogram> endToEnd;

    void eager(@Observes @Initialized(ApplicationScoped.class) Object applicationStarted) {
        // Registered at deployment: every series is in the scrape at 0 before the first event.
    }

    @PostConstruct
    void register() {
        processed = metrics.counter("hookstile_events_processed_total",
                "Tries of events, each counted once by its outcome (retried: failed, to be tried again)",
                "source", "outcome");
        var tryFamily = metrics.histogram("hookstile_processing_try_seconds",
                "How long a try took (claim, handlers, history), by its outcome", Metrics.LATENCY_BOUNDS, "outcome");
        for (Counted outcome : Counted.values()) {
            tries.put(outcome, tryFamily.labels(outcome.tag));
        }
        endToEnd = metrics.histogram("hookstile_event_end_to_end_seconds",
                "From an event's receipt to the end of the try that completed it, by source", Metrics.WAIT_BOUNDS,
                "source");
        for (Source source : sources.all()) {
            for (Counted outcome : Counted.values()) {
                processed.labels(source.name(), outcome.tag);
            }
            endToEnd.labels(source.name());
        }
    }

    /** A delivery whose last try succeeded ({@link Outcome#COMPLETED} or {@link Outcome#IGNORED}). */
    void succeeded(Attempts attempts, Outcome outcome, Instant now) {
        retried(attempts.event().source(), attempts.failures());
        Counted counted = outcome == Outcome.COMPLETED ? Counted.COMPLETED : Counted.IGNORED;
        String source = attempts.event().source();
        processed.labels(source, counted.tag).inc();
        tries.get(counted).observeNanos(attempts.tryNanos());
        if (counted == Counted.COMPLETED) {
            endToEnd.labels(source).observeNanos(Duration.between(attempts.event().receivedAt(), now).toNanos());
        }
    }

    /** A delivery whose tries all failed: the last one made the event dead, or it comes back later. */
    void failed(Attempts attempts, boolean dead) {
        List<Failure> failures = attempts.failures();
        if (failures.isEmpty()) {
            return;
        }
        String source = attempts.event().source();
        retried(source, dead ? failures.subList(0, failures.size() - 1) : failures);
        if (dead) {
            processed.labels(source, Counted.DEAD.tag).inc();
            observe(Counted.DEAD, failures.get(failures.size() - 1));
        }
    }

    private void retried(String source, List<Failure> failures) {
        if (failures.isEmpty()) {
            return;
        }
        processed.labels(source, Counted.RETRIED.tag).add(failures.size());
        for (Failure failure : failures) {
            observe(Counted.RETRIED, failure);
        }
    }

    private void observe(Counted outcome, Failure failure) {
        if (failure.durationMillis() != null) {
            tries.get(outcome).observeNanos(TimeUnit.MILLISECONDS.toNanos(failure.durationMillis()));
        }
    }
}
