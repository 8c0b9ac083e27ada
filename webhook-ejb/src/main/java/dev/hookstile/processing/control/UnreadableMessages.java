package dev.hookstile.processing.control;

import dev.hookstile.api.Text;
import dev.hookstile.metrics.boundary.Metrics;
import dev.hookstile.metrics.boundary.Counter;
import dev.hookstile.platform.boundary.LogFields;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.jms.Message;

import java.time.Clock;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What a consumer does with a message it cannot read as events: records it {@code dead} with its bytes and why
 * ({@link UnreadableMessage}), where the operator API shows it, and counts it
 * ({@code hookstile_messages_unreadable_total}). The message may be the only trace of events acknowledged to their
 * senders, so it is consumed only once that record commits; when it cannot be written (the database is down) this
 * throws and the consumer rolls back, so the broker redelivers it.
 */
@ApplicationScoped
public class UnreadableMessages {

    private static final Logger LOG = Logger.getLogger(UnreadableMessages.class.getName());

    @Inject
    AttemptLog log;

    @Inject
    Metrics metrics;

    private final Clock clock = Clock.systemUTC();
    private Counter unreadable;

    /** Registered at deployment, so the counter is at 0 before the first unreadable message rather than absent. */
    void eager(@Observes @Initialized(ApplicationScoped.class) Object applicationStarted) {
        // Observing the event instantiates the bean.
    }

    @PostConstruct
    void register() {
        unreadable = metrics.counter("hookstile_messages_unreadable_total",
                "Messages on Hookstile's queues that could not be read as events, recorded dead with their bytes")
                .labels();
    }

    /**
     * @param failure why it could not be read
     * @param queue   the queue it came from
     * @throws RuntimeException when it cannot be recorded: roll back, so that it is redelivered
     */
    public void record(Message message, Throwable failure, String queue) {
        UnreadableMessage recorded = UnreadableMessage.of(message, failure, queue);
        if (log.recordUnreadable(recorded, clock.instant())) {
            unreadable.inc();
            LogFields.event(recorded.source(), recorded.eventId(), 1).log(LOG, Level.SEVERE, () -> "Recorded an "
                    + "unreadable message dead, as " + LogFields.name(recorded.source(), recorded.eventId())
                    + " (GET /api/events?status=dead): " + Text.escaped(recorded.reason()));
        } else {
            LogFields.event(recorded.source(), recorded.eventId(), 1).log(LOG, Level.WARNING, () -> "An unreadable "
                    + "message is recorded already, as " + LogFields.name(recorded.source(), recorded.eventId())
                    + "; consumed");
        }
    }
}
