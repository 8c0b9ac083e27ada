package dev.hookstile.replay.boundary;

import dev.hookstile.platform.boundary.SchemaMigration;
import dev.hookstile.queue.boundary.HandOffFailure;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.Timeout;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * After every start, queues again the events a replay left {@code received} before it: a replay whose message a
 * crash may have lost. A replay commits the status change in PostgreSQL and the message on the broker in one
 * transaction, but the database takes part as its last, one-phase resource: a crash after the database committed and
 * before the transaction log recorded the outcome leaves the broker's branch to be rolled back at recovery, and the
 * event {@code received} with no message (found by ReplayCrashFaultIT: a prepared branch recovered by the broker, an
 * event stuck). At most one extra message per such event per start, which the claim makes harmless: the event's
 * first delivery processes it, any other finds it finished.
 */
@Singleton
@Startup
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class LostReplays {

    private static final Logger LOG = Logger.getLogger(LostReplays.class.getName());
    static final String RECEIVED_BEFORE = "SELECT source, event_id FROM received_event"
            + " WHERE status = 'received' AND updated_at < ?1 ORDER BY updated_at LIMIT 500";
    /** After the broker's and the transaction manager's own recovery, which may still deliver the messages. */
    private static final long FIRST_LOOK_MS = 10_000;
    private static final long RETRY_MS = 30_000;

    @Inject
    Replays replays;

    @Inject
    EntityManager em;

    @Inject
    SchemaMigration schema;

    @Resource
    TimerService timers;

    private Instant startedAt;

    @PostConstruct
    void schedule() {
        startedAt = Instant.now();
        timers.createSingleActionTimer(FIRST_LOOK_MS, new TimerConfig(null, false));
    }

    @Timeout
    void requeue() {
        try {
            if (!schema.migrated()) {
                throw new IllegalStateException("the schema is not migrated yet");
            }
            int requeued = 0;
            int batch;
            // Each one queued again leaves the selection (its updated_at moves past the start); a batch that queues
            // nothing (each claimed meanwhile) ends the look too.
            do {
                batch = 0;
                for (Object[] event : receivedBeforeStart()) {
                    if (replays.requeueLost((String) event[0], (String) event[1], startedAt) == Replays.Result.QUEUED) {
                        batch++;
                    }
                }
                requeued += batch;
            } while (batch > 0);
            if (requeued > 0) {
                int count = requeued;
                LOG.info(() -> "Queued again " + count + " replayed events left 'received' before this start");
            }
        } catch (RuntimeException | HandOffFailure e) {
            // The database or the broker is not there yet: look again a little later.
            LOG.log(Level.WARNING, "Could not look for replays lost before this start; next look in "
                    + RETRY_MS / 1000 + " s: " + e);
            timers.createSingleActionTimer(RETRY_MS, new TimerConfig(null, false));
        }
    }

    @SuppressWarnings("unchecked")
    private List<Object[]> receivedBeforeStart() {
        return em.createNativeQuery(RECEIVED_BEFORE).setParameter(1, Timestamp.from(startedAt)).getResultList();
    }
}
