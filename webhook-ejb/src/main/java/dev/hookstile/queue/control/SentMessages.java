package dev.hookstile.queue.control;

import dev.hookstile.metrics.boundary.Metrics;
import dev.hookstile.metrics.boundary.Counter;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/**
 * The messages the hand-off sent to the queue ({@code hookstile_queue_messages_total}): accepted events divided by
 * it is how many travel together. A bean of its own, created with the application: the queue itself cannot be created
 * that early (its connection factory comes from an EJB).
 */
@ApplicationScoped
public class SentMessages {

    @Inject
    Metrics metrics;

    private Counter messages;

    /** Registered at deployment, so the counter is at 0 before the first message rather than absent. */
    void eager(@Observes @Initialized(ApplicationScoped.class) Object applicationStarted) {
        // Observing the event instantiates the bean.
    }

    @PostConstruct
    void register() {
        messages = metrics.counter("hookstile_queue_messages_total",
                "Messages ingest sent to the queue; accepted events divided by it is how many travel together")
                .labels();
    }

    public void sent() {
        messages.inc();
    }
}
