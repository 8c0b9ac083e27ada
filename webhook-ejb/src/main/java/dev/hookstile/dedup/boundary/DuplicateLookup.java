package dev.hookstile.dedup.boundary;

import dev.hookstile.events.boundary.RecordedKeys;
import dev.hookstile.platform.boundary.ContainerResources;
import dev.hookstile.platform.boundary.OwnThreads;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.concurrent.ContextService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The cheap "have we recorded this event already?" check at ingest, so a redelivery is answered {@code duplicate}
 * without queueing it again.
 *
 * <p>It is an optimisation only: the claim in the consumer is what guarantees at-most-once processing. So a database
 * that fails must not stop ingest, nor slow it. The lookup runs on a thread of its own, and the hand-off waits at
 * most {@value #ANSWER_WITHIN_MILLIS} ms for its answer; what is not answered by then is queued unasked. While that
 * thread is still busy with an earlier lookup, nothing is asked at all. Bounding the statements alone was not enough:
 * during a partition the pool itself held the caller for seconds (measured: 2.2 s, the partition fault test), by
 * validating a pooled connection (up to its 1 s socket timeout), then, with every connection failed, refilling the
 * pool on the caller's thread (up to the 1 s login timeout per connection). Whatever JDBC or the pool waits for now
 * holds only this thread. The lookup itself stops asking after {@value #LOOKUP_WITHIN_MILLIS} ms (a database that
 * answers each probe slowly), and after a failure it is skipped for a pause and every event is queued. When the
 * pause ends, one lookup probes the database while the others still skip it; its success ends the pause for all.
 *
 * <p>The lookup's thread keeps its connection from one lookup to the next, with the lookup's network timeout set once:
 * borrowing it from the pool for every group, setting the timeout and setting it back were half of that thread's
 * CPU, and a copy of the pool's property maps for every event at 500/s (profiled, docs/benchmarks.md). A connection
 * that failed is closed, and the next lookup after the pause borrows a fresh one, which the pool validates.
 *
 * <p>The hand-off asks about a group of events at once: one connection, one primary-key probe per event. A single
 * statement for the group ({@code IN (...)}, {@code = ANY (?)}, a join with {@code UNNEST}) was tried: under load,
 * with the consumers inserting at the same time, each cost PostgreSQL 15 milliseconds of CPU (measured: two backends
 * at 25% for about 100 lookups a second), where the probes take microseconds each.
 */
@ApplicationScoped
public class DuplicateLookup {

    /**
     * The longest the hand-off waits for a lookup. Its requests may have waited as long for the group before theirs,
     * and ingest answers within a second while the database does not answer.
     */
    static final int ANSWER_WITHIN_MILLIS = 300;
    /** After this long the lookup asks no more and answers with what it has, well within the hand-off's wait. */
    static final int LOOKUP_WITHIN_MILLIS = 200;
    private static final long PAUSE_AFTER_FAILURE = TimeUnit.SECONDS.toNanos(5);
    private static final Executor SAME_THREAD = Runnable::run;
    private static final Logger LOG = Logger.getLogger(DuplicateLookup.class.getName());

    @Inject
    @ContainerResources.LookupDatabase
    DataSource dataSource;

    @Inject
    ContextService context;

    private volatile long skipUntil = System.nanoTime();
    private volatile boolean healthy = true;
    /** A lookup is under way on the lookup's thread (at most one ever is). */
    private final AtomicBoolean busy = new AtomicBoolean();
    private ThreadPoolExecutor worker;
    /** The lookup thread's connection, kept between lookups; touched on that thread only, and by {@link #stop}. */
    private Connection held;
    /** Its network timeout as the pool gave it, set back before it goes back. */
    private int heldTimeout;

    /**
     * Which of these events of one source the database positively knows, in one query; the others are unknown, or
     * the database is unsure (failing, paused after a failure).
     */
    public Set<String> recordedAmong(String source, Collection<String> eventIds) {
        if (eventIds.isEmpty()) {
            return Set.of();
        }
        if (!healthy && System.nanoTime() - skipUntil < 0) {
            return Set.of();
        }
        if (!busy.compareAndSet(false, true)) {
            // The last lookup has not answered yet (a database that stopped answering): do not wait behind it.
            return Set.of();
        }
        var answer = new CompletableFuture<Set<String>>();
        try {
            worker().execute(() -> {
                // Free before answering: the asker may ask about its next group the moment it has the answer, and
                // freed after, that group went unasked (within a few groups asked back to back: DuplicateLookupTest).
                Set<String> recorded;
                try {
                    recorded = lookUp(source, eventIds);
                } catch (Throwable e) {
                    busy.set(false);
                    // Kept from the pool: a worker that died would be replaced on the asking thread (see start).
                    answer.completeExceptionally(e);
                    return;
                }
                busy.set(false);
                answer.complete(recorded);
            });
        } catch (RuntimeException e) {
            busy.set(false);
            LOG.log(Level.WARNING, e, () -> "Duplicate lookup could not start; the group is queued unasked");
            return Set.of();
        }
        try {
            return answer.get(ANSWER_WITHIN_MILLIS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException slow) {
            LOG.fine(() -> "Duplicate lookup did not answer within " + ANSWER_WITHIN_MILLIS
                    + " ms; the group is queued unasked");
            return Set.of();
        } catch (ExecutionException e) {
            return Set.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Set.of();
        }
    }

    /**
     * Makes the lookup's thread now, on the calling thread (a request's), where the application's context certainly
     * is: not later on the thread that asks.
     */
    public void start() {
        worker().prestartCoreThread();
    }

    private synchronized ThreadPoolExecutor worker() {
        if (worker == null) {
            worker = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
                    OwnThreads.withContext(context, "hookstile-duplicate-lookup"));
        }
        return worker;
    }

    @PreDestroy
    synchronized void stop() {
        if (worker != null) {
            worker.shutdownNow();
            try {
                // A lookup under way ends within its network timeout; then the connection goes back to the pool.
                worker.awaitTermination(ANSWER_WITHIN_MILLIS * 2L, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        release();
    }

    private Set<String> lookUp(String source, Collection<String> eventIds) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LOOKUP_WITHIN_MILLIS);
        try {
            Set<String> recorded = RecordedKeys.among(connection(), source, eventIds, deadline);
            if (System.nanoTime() - deadline > 0) {
                LOG.fine(() -> "Duplicate lookup out of time; the rest of the group is queued unasked");
            }
            if (!healthy) {
                healthy = true;
                LOG.info("Duplicate lookup answers again");
            }
            return recorded;
        } catch (SQLException | RuntimeException e) {
            release();
            skipUntil = System.nanoTime() + PAUSE_AFTER_FAILURE;
            if (healthy) {
                healthy = false;
                LOG.warning(() -> "Duplicate lookup failed; accepting events without it, probing every 5 s "
                        + "(processing still deduplicates): " + e);
            }
            return Set.of();
        }
    }

    private Connection connection() throws SQLException {
        if (held == null) {
            Connection borrowed = dataSource.getConnection();
            try {
                heldTimeout = borrowed.getNetworkTimeout();
                borrowed.setNetworkTimeout(SAME_THREAD, ANSWER_WITHIN_MILLIS);
            } catch (SQLException | RuntimeException e) {
                borrowed.close();
                throw e;
            }
            held = borrowed;
        }
        return held;
    }

    /** Back to the pool: the pool's own socket timeout again, then closed (a broken one is dropped by the pool). */
    private void release() {
        Connection connection = held;
        held = null;
        if (connection == null) {
            return;
        }
        try (connection) {
            connection.setNetworkTimeout(SAME_THREAD, heldTimeout);
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.FINE, "Closing the duplicate lookup's connection failed", e);
        }
    }
}
