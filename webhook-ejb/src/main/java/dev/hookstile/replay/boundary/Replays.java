package dev.hookstile.replay.boundary;

import dev.hookstile.events.entity.EventStatus;
import dev.hookstile.platform.AfterCommit;
import dev.hookstile.events.entity.ReceivedEvent;
import dev.hookstile.platform.boundary.LogFields;
import dev.hookstile.queue.boundary.EventMessage;
import dev.hookstile.queue.boundary.EventQueue;
import dev.hookstile.trace.TraceSpan;
import dev.hookstile.trace.boundary.Tracing;
import dev.hookstile.queue.boundary.HandOffFailure;
import dev.hookstile.source.boundary.Sources;
import dev.hookstile.replay.control.ReplayMetrics;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Deliberate reprocessing of one recorded event. The event goes back through the queue as a new attempt: its status
 * becomes {@code received} and its message is sent in one transaction, and only an event that is finished
 * ({@code completed}, {@code ignored} or {@code dead}) can be queued again. So the dedup claim does not block a
 * replay, yet two concurrent replays of one event queue it once: the second finds it {@code received} already. The
 * event's allowance of attempts starts afresh ({@code replay_base}).
 *
 * <p>Each way in updates the row only from the state its caller saw (the transitions of docs/architecture.md, "The
 * life of an event"): a job from the status and attempts it read, a lost replay's requeue only while the event is
 * still {@code received} from before the start. A row that moved on meanwhile answers {@link Result#ALREADY_QUEUED}.
 */
@ApplicationScoped
public class Replays {

    private static final Logger LOG = Logger.getLogger(Replays.class.getName());

    public enum Result {
        /** Queued for processing; its status is {@code received} until a consumer claims it. */
        QUEUED,
        /** Already queued or being retried; nothing was done. */
        ALREADY_QUEUED,
        /** A request with the same idempotency key queued this event before; nothing was done now. */
        QUEUED_BEFORE,
        /** The idempotency key was used for another event; nothing was done. */
        KEY_REUSED,
        /** No such event is recorded. */
        NOT_FOUND,
        /**
         * A message that could not be read, recorded with its bytes ({@link ReceivedEvent#UNREADABLE_SOURCE}): there
         * is no event to process; nothing was done.
         */
        NOT_REPLAYABLE
    }

    /**
     * A replay commits the database first and the broker last; a crash between the two leaves the event
     * {@code received} with no message. After this long it may be replayed again (a duplicate message is harmless:
     * only one delivery can claim it).
     */
    static final Duration LOST_REPLAY = Duration.ofMinutes(10);

    /**
     * Whether {@link #replay} would queue the event now, for the operator API to say so before anyone asks (the
     * console offers "Replay" by it): the rule of its statement ({@link ReceivedEvent#REPLAY}), a finished event or
     * one left {@code received} longer than {@link #LOST_REPLAY}, and never the record of an unreadable message.
     *
     * @param updatedAt when the event last changed, or {@code null} when unknown
     */
    public static boolean replayable(String source, EventStatus status, Instant updatedAt, Instant now) {
        if (ReceivedEvent.UNREADABLE_SOURCE.equals(source)) {
            return false;
        }
        return status.replayable() || status == EventStatus.RECEIVED && updatedAt != null
                && updatedAt.isBefore(now.minus(LOST_REPLAY));
    }

    /** How long an idempotency key is remembered. */
    static final Duration KEY_RETENTION = Duration.ofHours(24);
    static final String FIND_KEY = "SELECT source, event_id FROM replay_request WHERE idempotency_key = ?";
    static final String RECORD_KEY =
            "INSERT INTO replay_request (idempotency_key, source, event_id, created_at) VALUES (?, ?, ?, ?)";
    static final String FORGET_OLD_KEYS = "DELETE FROM replay_request WHERE created_at < ?";

    @Inject
    Tracing tracing;

    @Inject
    EntityManager em;

    @Inject
    EventQueue queue;

    @Inject
    Sources sources;

    @Inject
    ReplayMetrics metrics;

    @Resource
    TransactionSynchronizationRegistry transactions;

    /**
     * @param idempotencyKey the request's {@code Idempotency-Key}, or {@code null}: a request with a key that already
     *                       queued this event (within {@link #KEY_RETENTION}) queues nothing again. Recorded only
     *                       when the event is queued, in the same transaction, so a refused request can be retried
     *                       with its key.
     */
    @Transactional(rollbackOn = Exception.class)
    public Result replay(String source, String eventId, String idempotencyKey) throws HandOffFailure {
        Queued queued = queueAgain(source, eventId, idempotencyKey, Transition.replay(Instant.now().minus(LOST_REPLAY)));
        if (queued.result() == Result.QUEUED) {
            // Said before the commit: a replay rolled back after this line leaves its event as it was, and the
            // caller is told it failed.
            LogFields.event(source, eventId, queued.attempt()).log(LOG, Level.INFO, () -> "Replay: event "
                    + LogFields.name(source, eventId) + " queued again, as attempt " + queued.attempt());
        }
        return queued.result();
    }

    /**
     * A bulk replay job's replay of an event its filter selected, without an idempotency key and without a line of
     * its own (a job queues thousands, and says what it did once, when it ends: {@link ReplayJobs}). Only while the
     * event is still as the job read it: {@code seenStatus} with {@code seenAttempts}; one another replay queued since
     * is {@link Result#ALREADY_QUEUED}.
     */
    @Transactional(rollbackOn = Exception.class)
    public Result replayForJob(String source, String eventId, EventStatus seenStatus, int seenAttempts)
            throws HandOffFailure {
        Queued queued = queueAgain(source, eventId, null, Transition.asSeen(seenStatus, seenAttempts));
        if (queued.result() == Result.QUEUED) {
            LogFields.event(source, eventId, queued.attempt()).log(LOG, Level.FINE, () -> "Replay job: event "
                    + LogFields.name(source, eventId) + " queued again, as attempt " + queued.attempt());
        }
        return queued.result();
    }

    /**
     * Sends again the message of an event a replay left {@code received} before {@code before}, which may be lost
     * (see {@link LostReplays}); only while it is still so. An event a consumer finished meanwhile is
     * {@link Result#ALREADY_QUEUED} and left as it is: it ran for its replay. A second message for an event whose first
     * was not lost is harmless: only one delivery can claim it.
     */
    @Transactional(rollbackOn = Exception.class)
    public Result requeueLost(String source, String eventId, Instant before) throws HandOffFailure {
        return queueAgain(source, eventId, null, Transition.lost(before)).result();
    }

    /** The update a way of replaying makes, with the state its caller saw. */
    private record Transition(String query, Object seen, Object seenAttempts) {

        static Transition replay(Instant lostBefore) {
            return new Transition(ReceivedEvent.REPLAY, Timestamp.from(lostBefore), null);
        }

        static Transition lost(Instant before) {
            return new Transition(ReceivedEvent.REQUEUE_LOST, Timestamp.from(before), null);
        }

        static Transition asSeen(EventStatus status, int attempts) {
            return new Transition(ReceivedEvent.REPLAY_AS_SEEN, status.column(), attempts);
        }
    }

    /** What a replay did; {@code attempt}: the attempt the event is queued for, 0 when it was not queued. */
    private record Queued(Result result, int attempt) {
    }

    private Queued queueAgain(String source, String eventId, String idempotencyKey, Transition transition)
            throws HandOffFailure {
        if (idempotencyKey != null) {
            @SuppressWarnings("unchecked")
            java.util.List<Object[]> earlier = em.createNativeQuery(FIND_KEY)
                    .setParameter(1, idempotencyKey)
                    .getResultList();
            if (!earlier.isEmpty()) {
                Object[] row = earlier.get(0);
                boolean same = source.equals(row[0]) && eventId.equals(row[1]);
                return new Queued(same ? Result.QUEUED_BEFORE : Result.KEY_REUSED, 0);
            }
        }
        ReceivedEvent event = em.find(ReceivedEvent.class, new ReceivedEvent.Key(source, eventId));
        if (event == null) {
            return new Queued(Result.NOT_FOUND, 0);
        }
        if (ReceivedEvent.UNREADABLE_SOURCE.equals(source)) {
            return new Queued(Result.NOT_REPLAYABLE, 0);
        }
        Instant now = Instant.now();
        var update = em.createNamedQuery(transition.query())
                .setParameter(1, Timestamp.from(now))
                .setParameter(2, source)
                .setParameter(3, eventId)
                .setParameter(4, transition.seen());
        if (transition.seenAttempts() != null) {
            update.setParameter(5, transition.seenAttempts());
        }
        int requeued = update.executeUpdate();
        if (requeued == 0) {
            return new Queued(Result.ALREADY_QUEUED, 0);
        }
        if (idempotencyKey != null) {
            em.createNativeQuery(FORGET_OLD_KEYS).setParameter(1, Timestamp.from(now.minus(KEY_RETENTION)))
                    .executeUpdate();
            em.createNativeQuery(RECORD_KEY)
                    .setParameter(1, idempotencyKey)
                    .setParameter(2, source)
                    .setParameter(3, eventId)
                    .setParameter(4, Timestamp.from(now))
                    .executeUpdate();
        }
        // The order key as the source defines it now: a replay waits its turn behind the key's queued events.
        String orderKey = sources.find(source).map(s -> s.orderKeyOf(event.getPayload())).orElse(null);
        TraceSpan replay = tracing.replay(source, eventId);
        try {
            queue.resend(new EventMessage.Outgoing(source, event.getProvider(), eventId, event.getType(), orderKey,
                    event.getReceivedAt().toInstant(), event.getHeaders(), event.getPayload(), false,
                    replay.traceParent()));
        } finally {
            replay.end();
        }
        // Counted once queued for good: a replay whose transaction rolls back queued nothing.
        AfterCommit.run(transactions, metrics::queued);
        return new Queued(Result.QUEUED, event.getAttempts() + 1);
    }
}
