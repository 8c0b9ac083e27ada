package dev.hookstile.replay.control;

import dev.hookstile.dedup.entity.EventStatus;
import dev.hookstile.dedup.entity.ReceivedEvent;
import dev.hookstile.ingest.control.EventQueue;
import dev.hookstile.ingest.control.HandOffFailure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;

/**
 * Deliberate reprocessing of one recorded event. The event goes back through the queue as a new attempt: its status
 * becomes {@code received} and its message is sent in one transaction, and only an event that is finished
 * ({@code completed}, {@code ignored} or {@code dead}) can be queued again. So the dedup claim does not block a
 * replay, yet two concurrent replays of one event queue it once: the second finds it {@code received} already. The
 * event's allowance of attempts starts afresh ({@code replay_base}).
 */
@ApplicationScoped
public class Replays {

    public enum Result {
        /** Queued for processing; its status is {@code received} until a consumer claims it. */
        QUEUED,
        /** Already queued or being retried; nothing was done. */
        ALREADY_QUEUED,
        /** No such event is recorded. */
        NOT_FOUND
    }

    /**
     * A replay commits the database first and the broker last; a crash between the two leaves the event
     * {@code received} with no message. After this long it may be replayed again (a duplicate message is harmless:
     * only one delivery can claim it).
     */
    static final Duration LOST_REPLAY = Duration.ofMinutes(10);

    @PersistenceContext(unitName = "hookstile")
    EntityManager em;

    @Inject
    EventQueue queue;

    @Transactional(rollbackOn = Exception.class)
    public Result replay(String source, String eventId) throws HandOffFailure {
        ReceivedEvent event = em.find(ReceivedEvent.class, new ReceivedEvent.Key(source, eventId));
        if (event == null) {
            return Result.NOT_FOUND;
        }
        Instant now = Instant.now();
        int requeued = em.createNamedQuery(ReceivedEvent.REQUEUE)
                .setParameter(1, Timestamp.from(now))
                .setParameter(2, source)
                .setParameter(3, eventId)
                .setParameter(4, Timestamp.from(now.minus(LOST_REPLAY)))
                .executeUpdate();
        if (requeued == 0) {
            return Result.ALREADY_QUEUED;
        }
        queue.resend(source, event.getProvider(), eventId, event.getType(), event.getReceivedAt().toInstant(),
                event.getHeaders(), event.getPayload());
        return Result.QUEUED;
    }

    /** The statuses a replay can start from. */
    public static boolean replayable(EventStatus status) {
        return status == EventStatus.DEAD || status == EventStatus.COMPLETED || status == EventStatus.IGNORED;
    }
}
