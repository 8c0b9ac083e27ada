package dev.hookstile.events.boundary;

import dev.hookstile.events.control.EventKeyStatements;
import dev.hookstile.events.control.KeyBackfillStatements;
import dev.hookstile.platform.boundary.DatabaseTurns;
import dev.hookstile.search.boundary.SearchKeys;
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

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * Writes a source's search keys for the events it received before they were configured, when the operator asks
 * ({@code POST /api/search-keys/backfill}): events are never read for keys behind the operator's back. A page of
 * {@link #PAGE} events a second per source (so it never crowds out processing), oldest first, each page's keys and the position after it committed
 * together, so a crash loses at most the page in flight and a restart, on any instance, goes on from the position.
 * Two instances may read the same page: the keys are written once ({@code ON CONFLICT DO NOTHING}) and only one moves
 * the position on (it must still be where it was read).
 */
@Singleton
@Startup
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class KeyBackfill {

    static final int PAGE = 500;
    /** {@link #PAGE}; smaller in tests. */
    int pageSize = PAGE;
    static final Duration TICK = Duration.ofSeconds(1);
    private static final Logger LOG = Logger.getLogger(KeyBackfill.class.getName());

    @Inject
    SearchKeys keys;

    @Inject
    DatabaseTurns database;

    @Resource
    TimerService timers;

    /**
     * A source's back-fill: {@code running} or {@code completed}; events received before {@code until} are its,
     * {@code scanned} of them read so far and {@code written} keys written (an event may have several, or none).
     */
    public record Progress(String source, String status, OffsetDateTime until, OffsetDateTime after,
                           String afterEventId, long scanned, long written, OffsetDateTime startedAt,
                           OffsetDateTime updatedAt) {
    }

    @PostConstruct
    void schedule() {
        timers.createIntervalTimer(TICK.toMillis(), TICK.toMillis(), new TimerConfig(null, false));
    }

    /**
     * Starts the source's back-fill of the events received until now, or answers the one running.
     *
     * @throws IllegalArgumentException when the source has no search keys
     */
    public Progress start(String source, Instant now) {
        if (!keys.has(source)) {
            throw new IllegalArgumentException("source '" + source + "' has no search keys: set HOOKSTILE_SOURCES_"
                    + source.toUpperCase(java.util.Locale.ROOT).replace('-', '_') + "_SEARCH_KEYS first");
        }
        try (Connection connection = database.connection()) {
            Timestamp at = Timestamp.from(now);
            if (find(connection, source).isEmpty()) {
                try (PreparedStatement insert = connection.prepareStatement(KeyBackfillStatements.START)) {
                    insert.setString(1, source);
                    insert.setTimestamp(2, at);
                    insert.setTimestamp(3, at);
                    insert.setTimestamp(4, at);
                    insert.executeUpdate();
                } catch (SQLException raced) {
                    // Another call started it first: answered below.
                }
            } else {
                try (PreparedStatement restart = connection.prepareStatement(KeyBackfillStatements.RESTART)) {
                    restart.setTimestamp(1, at);
                    restart.setTimestamp(2, at);
                    restart.setTimestamp(3, at);
                    restart.setString(4, source);
                    restart.executeUpdate();
                }
            }
            return find(connection, source).orElseThrow();
        } catch (SQLException e) {
            throw new IllegalStateException("could not start the back-fill of " + source, e);
        }
    }

    /** Every source's back-fill, running or finished. */
    public List<Progress> all() {
        try (Connection connection = database.connection();
             PreparedStatement select = connection.prepareStatement(KeyBackfillStatements.ALL);
             ResultSet rows = select.executeQuery()) {
            var all = new ArrayList<Progress>();
            while (rows.next()) {
                all.add(progress(rows));
            }
            return all;
        } catch (SQLException e) {
            throw new IllegalStateException("could not read the back-fills", e);
        }
    }

    @Timeout
    void tick() {
        // No source has keys: no back-fill can run, and the database is not asked every second.
        if (keys.all().isEmpty() || !database.ready()) {
            return;
        }
        database.run(connection -> {
            for (Progress running : running(connection)) {
                page(connection, running, Instant.now());
            }
        }, LOG, "Could not back-fill search keys; next try in " + TICK.toSeconds() + " s");
    }

    /** One page of a running back-fill: its events' keys and the position after it, in one transaction. */
    void page(Connection connection, Progress running, Instant now) throws SQLException {
        // Each value of the position is this page's: a restart moved it back to the start meanwhile? Then the
        // compare-and-set below fails and the page is read again from the new position.
        var events = new ArrayList<Object[]>(pageSize);
        String sql = String.format(running.after() == null ? KeyBackfillStatements.PAGE_FIRST
                : KeyBackfillStatements.PAGE_AFTER, pageSize);
        try (PreparedStatement select = connection.prepareStatement(sql)) {
            select.setString(1, running.source());
            select.setObject(2, running.until());
            if (running.after() != null) {
                select.setObject(3, running.after());
                select.setObject(4, running.after());
                select.setString(5, running.afterEventId());
            }
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    events.add(new Object[]{rows.getString(1), rows.getObject(2, OffsetDateTime.class),
                            rows.getBytes(3)});
                }
            }
        }
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try {
            int written = 0;
            try (PreparedStatement insert = connection.prepareStatement(EventKeyStatements.RECORD)) {
                for (Object[] event : events) {
                    for (Map.Entry<String, String> key : keys.of(running.source(), (byte[]) event[2]).entrySet()) {
                        insert.setString(1, running.source());
                        insert.setString(2, (String) event[0]);
                        insert.setString(3, key.getKey());
                        insert.setString(4, key.getValue());
                        insert.setObject(5, event[1]);
                        insert.addBatch();
                    }
                }
                for (int count : insert.executeBatch()) {
                    written += Math.max(0, count);
                }
            }
            Object[] last = events.isEmpty() ? null : events.get(events.size() - 1);
            try (PreparedStatement advance = connection.prepareStatement(KeyBackfillStatements.ADVANCE)) {
                advance.setObject(1, last == null ? running.after() : last[1]);
                advance.setString(2, last == null ? running.afterEventId() : (String) last[0]);
                advance.setLong(3, events.size());
                advance.setLong(4, written);
                advance.setString(5, events.size() < pageSize ? "completed" : "running");
                advance.setTimestamp(6, Timestamp.from(now));
                advance.setString(7, running.source());
                advance.setLong(8, running.scanned());
                if (advance.executeUpdate() == 0) {
                    // Another instance did this page first, or the operator restarted it: its keys are written.
                    connection.rollback();
                    return;
                }
            }
            connection.commit();
            if (events.size() < pageSize) {
                LOG.info(() -> "Search keys back-filled for source " + running.source() + ": "
                        + (running.scanned() + events.size()) + " events read");
            }
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(autoCommit);
        }
    }

    private static List<Progress> running(Connection connection) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(KeyBackfillStatements.RUNNING);
             ResultSet rows = select.executeQuery()) {
            var running = new ArrayList<Progress>();
            while (rows.next()) {
                running.add(progress(rows));
            }
            return running;
        }
    }

    private static Optional<Progress> find(Connection connection, String source) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(KeyBackfillStatements.ONE)) {
            select.setString(1, source);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? Optional.of(progress(rows)) : Optional.empty();
            }
        }
    }

    private static Progress progress(ResultSet rows) throws SQLException {
        return new Progress(rows.getString(1), rows.getString(2), rows.getObject(3, OffsetDateTime.class),
                rows.getObject(4, OffsetDateTime.class), rows.getString(5), rows.getLong(6), rows.getLong(7),
                rows.getObject(8, OffsetDateTime.class), rows.getObject(9, OffsetDateTime.class));
    }
}
