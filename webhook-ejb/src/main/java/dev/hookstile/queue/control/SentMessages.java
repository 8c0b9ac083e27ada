package dev.hookstile.queue.control;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;

/**
 * The messages the hand-off sent to the queue ({@code hookstile_queue_messages_total}): accepted events divided by
 * it is how many travel together. A bean of its own, created with the application: the registry can only be reached
 * from a thread of the application (the readiness check's thread, which often uses the queue first, cannot), and the
 * queue itself cannot be created that early (its connection factory comes from an EJB).
 */
@ApplicationScoped
public class SentMessages {

    @Inject
    MetricRegistry registry;

    private Counter messages;

    /** Registered at deployment, so the counter is at 0 before the first message rather than absent. */
    void eager(@Observes @Initialized(ApplicationScoped.class) Object applicationStarted) {
        // Observing the event instantiates the bean.
    }

    @PostConstruct
    void register() {
        messages = registry.counter(Metadata.builder().withName("hookstile.queue.messages")
                .withDescription("Messages ingest sent to the queue; accepted events divided by it is how many "
                        + "travel together").build());
    }

    public void sent() {
        messages.inc();
    }
}
