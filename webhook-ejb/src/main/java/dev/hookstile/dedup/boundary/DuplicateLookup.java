package dev.hookstile.dedup.boundary;

import dev.hookstile.events.entity.ReceivedEvent;
import dev.hookstile.platform.boundary.ContainerResources;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The cheap "have we recorded this event already?" check at ingest, so a redelivery is answered {@code duplicate}
 * without queueing it again.
 *
 * <p>It is an optimisation only: the claim in the consumer is what guarantees at-most-once processing. So a database
 * that fails must not stop ingest, nor slow it: a lookup waits at most {@value #ANSWER_WITHIN_MILLIS} ms for its
 * answer (a database that stops answering without refusing, a partition, would otherwise hold the request until
 * the sender gives up), a group's lookup as a whole too (what is not asked by then is queued unasked), and after a
 * failure the lookup is skipped for a pause and every event is queued. When the
 * pause ends, one request probes the database while the others still skip it; its success ends the pause for all.
 *
 * <p>The hand-off asks about a group of events at once: one connection, one primary-key probe per event. A single
 * statement for the group ({@code IN (...)}, {@code = ANY (?)}, a join with {@code UNNEST}) was tried: under load,
 * with the consumers inserting at the same time, each cost PostgreSQL 15 milliseconds of CPU (measured: two backends
 * at 25% for about 100 lookups a second), where the probes take microseconds each.
 */
@ApplicationScoped
public class DuplicateLookup {

    static final int ANSWER_WITHIN_MILLIS = 500;
    private static final long PAUSE_AFTER_FAILURE = TimeUnit.SECONDS.toNanos(5);
    private static final Executor SAME_THREAD = Runnable::run;
    private static final Logger LOG = Logger.getLogger(DuplicateLookup.class.getName());

    @Inject
    @ContainerResources.LookupDatabase
    DataSource dataSource;

    private volatile long skipUntil = System.nanoTime();
    private volatile boolean healthy = true;
    private final AtomicBoolean probing = new AtomicBoolean();

    /**
     * Which of these events of one source the database positively knows, in one query; the others are unknown, or
     * the database is unsure (failing, paused after a failure).
     */
    public Set<String> recordedAmong(String source, Collection<String> eventIds) {
        if (eventIds.isEmpty()) {
            return Set.of();
        }
        if (healthy) {
            return lookUp(source, eventIds);
        }
        if (System.nanoTime() - skipUntil < 0 || !probing.compareAndSet(false, true)) {
            return Set.of();
        }
        try {
            return lookUp(source, eventIds);
        } finally {
            probing.set(false);
        }
    }

    private Set<String> lookUp(String source, Collection<String> eventIds) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ANSWER_WITHIN_MILLIS);
        try (Connection connection = dataSource.getConnection()) {
            int before = connection.getNetworkTimeout();
            connection.setNetworkTimeout(SAME_THREAD, ANSWER_WITHIN_MILLIS);
            try (PreparedStatement statement = connection.prepareStatement(ReceivedEvent.RECORDED)) {
                var recorded = new HashSet<String>();
                for (String eventId : eventIds) {
                    // A database that answers each probe slowly must not hold the group for probes × the bound.
                    if (System.nanoTime() - deadline > 0) {
                        LOG.fine(() -> "Duplicate lookup out of time; the rest of the group is queued unasked");
                        break;
                    }
                    statement.setString(1, source);
                    statement.setString(2, eventId);
                    try (ResultSet rows = statement.executeQuery()) {
                        if (rows.next()) {
                            recorded.add(eventId);
                        }
                    }
                }
                if (!healthy) {
                    healthy = true;
                    LOG.info("Duplicate lookup answers again");
                }
                return recorded;
            } finally {
                connection.setNetworkTimeout(SAME_THREAD, before);
            }
        } catch (SQLException | RuntimeException e) {
            skipUntil = System.nanoTime() + PAUSE_AFTER_FAILURE;
            if (healthy) {
                healthy = false;
                LOG.warning(() -> "Duplicate lookup failed; accepting events without it, probing every 5 s "
                        + "(processing still deduplicates): " + e);
            }
            return Set.of();
        }
    }
}
