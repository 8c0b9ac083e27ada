package dev.hookstile.replay.control;

import dev.hookstile.metrics.boundary.Counter;
import dev.hookstile.metrics.boundary.Metrics;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/**
 * {@code hookstile_replay_events_queued_total}. A bean of its own, created with the application so the counter is in
 * the scrape at 0 before the first replay: {@code Replays} cannot be, its entity manager comes from an EJB that cannot
 * be called while the application starts.
 */
@ApplicationScoped
public class ReplayMetrics {

    @Inject
    Metrics metrics;

    private Counter queued;

    void eager(@Observes @Initialized(ApplicationScoped.class) Object applicationStarted) {
        // Observing the event instantiates the bean.
    }

    @PostConstruct
    void register() {
        queued = metrics.counter("hookstile_replay_events_queued_total",
                "Events queued again by replays (one at a time, in jobs, or found lost after a crash)").labels();
    }

    /** An event was queued again, and the transaction that did it committed. */
    public void queued() {
        queued.inc();
    }
}
