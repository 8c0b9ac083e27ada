package dev.hookstile.events.boundary;

import dev.hookstile.events.entity.EventStatus;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import dev.hookstile.platform.boundary.ContainerResources;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * How many recorded events a source has, by status, each count <b>bounded</b>: an operator needs "312 dead" or
 * "10000+ completed", never an exact count of a million rows, and counting them all (the former grouped
 * {@code count(*)}) read the whole table, 0.5 to 1.1 s at a million events. Each count walks at most
 * {@link #COUNT_LIMIT} index entries: the partial index {@code received_event_unfinished} for the statuses an
 * operator acts on (dead, retrying, received), {@code received_event_by_source} for the others (V10).
 */
@ApplicationScoped
public class EventCounts {

    /** The largest count reported; a count equal to it means "at least this many". */
    public static final int COUNT_LIMIT = 10_000;

    /** An overview must answer, or fail, while someone is waiting: a database that hangs is reported, not waited for. */
    static final int TIMEOUT_SECONDS = 5;

    private static final String BOUNDED = """
            SELECT COUNT(*) FROM (SELECT 1 FROM received_event WHERE source = ? AND status = ? LIMIT ?) bounded""";
    private static final String NEWEST = """
            SELECT received_at FROM received_event WHERE source = ? AND status = ? ORDER BY received_at DESC LIMIT 1""";
    /** Per status, so that each is one short walk of the index in received_at order. */
    private static final String OLDEST = """
            SELECT received_at FROM received_event WHERE source = ? AND status = ? ORDER BY received_at LIMIT 1""";

    @Inject
    @ContainerResources.Database
    DataSource dataSource;

    /** The source's events by status, every status this version knows, each at most {@link #COUNT_LIMIT}. */
    public Map<EventStatus, Long> bySource(String source) {
        return bySource(source, EventStatus.values());
    }

    /** The source's events in these statuses, each at most {@link #COUNT_LIMIT}. */
    public Map<EventStatus, Long> bySource(String source, EventStatus... statuses) {
        return inConnection(connection -> {
            Map<EventStatus, Long> counts = new EnumMap<>(EventStatus.class);
            try (PreparedStatement count = connection.prepareStatement(BOUNDED)) {
                count.setQueryTimeout(TIMEOUT_SECONDS);
                for (EventStatus status : statuses) {
                    count.setString(1, source);
                    count.setString(2, status.column());
                    count.setInt(3, COUNT_LIMIT);
                    try (ResultSet row = count.executeQuery()) {
                        row.next();
                        counts.put(status, row.getLong(1));
                    }
                }
            }
            return counts;
        });
    }

    /** When the source's oldest event still waiting (queued by a replay, or retrying) was received. */
    public Optional<Instant> oldestWaiting(String source) {
        return inConnection(connection -> {
            Instant oldest = null;
            try (PreparedStatement query = connection.prepareStatement(OLDEST)) {
                query.setQueryTimeout(TIMEOUT_SECONDS);
                for (EventStatus status : EventStatus.values()) {
                    if (!status.open()) {
                        continue;
                    }
                    query.setString(1, source);
                    query.setString(2, status.column());
                    try (ResultSet row = query.executeQuery()) {
                        if (row.next()) {
                            Timestamp at = row.getTimestamp(1);
                            if (oldest == null || at.toInstant().isBefore(oldest)) {
                                oldest = at.toInstant();
                            }
                        }
                    }
                }
            }
            return Optional.ofNullable(oldest);
        });
    }

    /**
     * How many events the query selects (its status, source, type, error and time range; not its cursor), at most
     * {@code limit}: one bounded walk of an index ({@code received_event_by_source} with a source,
     * {@code received_event_by_status} without).
     */
    public long matching(EventQuery query, int limit) {
        var sql = new StringBuilder("SELECT COUNT(*) FROM (SELECT 1 FROM received_event WHERE 1 = 1");
        var parameters = new java.util.ArrayList<Object>();
        if (query.status() != null) {
            sql.append(" AND status = ?");
            parameters.add(query.status().column());
        }
        if (query.source() != null) {
            sql.append(" AND source = ?");
            parameters.add(query.source());
        }
        if (query.type() != null) {
            sql.append(query.typeExact() ? " AND type = ?" : " AND type LIKE ? ESCAPE '\\'");
            parameters.add(query.typeExact() ? query.type() : EventQuery.prefixPattern(query.type()));
        }
        if (query.error() != null) {
            sql.append(" AND last_error = ?");
            parameters.add(query.error());
        }
        if (query.eventId() != null) {
            sql.append(" AND event_id = ?");
            parameters.add(query.eventId());
        }
        if (query.since() != null) {
            sql.append(" AND received_at >= ?");
            parameters.add(Timestamp.from(query.since()));
        }
        if (query.until() != null) {
            sql.append(" AND received_at < ?");
            parameters.add(Timestamp.from(query.until()));
        }
        sql.append(" LIMIT ?) bounded");
        parameters.add(limit);
        return inConnection(connection -> {
            try (PreparedStatement count = connection.prepareStatement(sql.toString())) {
                count.setQueryTimeout(TIMEOUT_SECONDS);
                for (int i = 0; i < parameters.size(); i++) {
                    count.setObject(i + 1, parameters.get(i));
                }
                try (ResultSet row = count.executeQuery()) {
                    row.next();
                    return row.getLong(1);
                }
            }
        });
    }

    /** When the source's newest recorded event was received: one index probe per status. */
    public Optional<Instant> newest(String source) {
        return inConnection(connection -> {
            Instant newest = null;
            try (PreparedStatement query = connection.prepareStatement(NEWEST)) {
                query.setQueryTimeout(TIMEOUT_SECONDS);
                for (EventStatus status : EventStatus.values()) {
                    query.setString(1, source);
                    query.setString(2, status.column());
                    try (ResultSet row = query.executeQuery()) {
                        if (row.next() && (newest == null || row.getTimestamp(1).toInstant().isAfter(newest))) {
                            newest = row.getTimestamp(1).toInstant();
                        }
                    }
                }
            }
            return Optional.ofNullable(newest);
        });
    }

    interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    /**
     * Plain JDBC on one pooled connection, outside any transaction: a handful of short reads, each cheaper than
     * EclipseLink's handling of a native query.
     */
    <T> T inConnection(Work<T> work) {
        try (Connection connection = dataSource.getConnection()) {
            return work.run(connection);
        } catch (SQLException e) {
            throw new jakarta.persistence.PersistenceException(e.getMessage(), e);
        }
    }
}
