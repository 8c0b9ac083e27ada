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
 * {@link #COUNT_LIMIT} index entries of {@code received_event_by_status_and_source} (V11), which leads with the
 * status and the source.
 */
@ApplicationScoped
public class EventCounts {

    /** The largest count reported; a count equal to it means "at least this many". */
    public static final int COUNT_LIMIT = 10_000;

    /** An overview must answer, or fail, while someone is waiting: a database that hangs is reported, not waited for. */
    static final int TIMEOUT_SECONDS = 5;

    /**
     * One bounded count, as a scalar subquery: the counts of a source are one statement, one round trip. The status
     * and the bound are written into the statement (an enum's column, a constant), not bound: PostgreSQL's generic
     * plan of a prepared statement, used once a connection has run it a few times, does not know them and walked
     * the primary key or the whole table instead of the index (seen as calls of 10 to 100 ms where the statement
     * alone took 1 ms).
     */
    private static final String BOUNDED = """
            (SELECT COUNT(*) FROM (SELECT 1 FROM received_event WHERE source = ? AND status = '%s' LIMIT %d) bounded)""";
    /** Per status, each a single probe of the index's end (PostgreSQL and H2 read a MIN or MAX so). */
    private static final String OLDEST = "(SELECT MIN(received_at) FROM received_event WHERE source = ? AND status = '%s')";
    private static final String NEWEST = "(SELECT MAX(received_at) FROM received_event WHERE source = ? AND status = '%s')";

    @Inject
    @ContainerResources.Database
    DataSource dataSource;

    /**
     * A source's events in some statuses, each counted up to {@link #COUNT_LIMIT}; when its oldest event still
     * waiting (queued by a replay, or retrying) and its newest event were received.
     */
    public record Summary(Map<EventStatus, Long> counts, Optional<Instant> oldestWaiting, Optional<Instant> newest) {
    }

    /** The source's events by status, every status this version knows, each at most {@link #COUNT_LIMIT}. */
    public Map<EventStatus, Long> bySource(String source) {
        return bySource(source, EventStatus.values());
    }

    /** The source's events in these statuses, each at most {@link #COUNT_LIMIT}. */
    public Map<EventStatus, Long> bySource(String source, EventStatus... statuses) {
        return summary(source, statuses).counts();
    }

    /** When the source's oldest event still waiting (queued by a replay, or retrying) was received. */
    public Optional<Instant> oldestWaiting(String source) {
        return summary(source).oldestWaiting();
    }

    /** When the source's newest recorded event was received. */
    public Optional<Instant> newest(String source) {
        return summary(source).newest();
    }

    /**
     * The counts of these statuses, the oldest waiting and the newest event of a source, in one statement of
     * scalar subqueries: each a bounded walk or a single probe of {@code received_event_by_status_and_source}.
     */
    public Summary summary(String source, EventStatus... statuses) {
        return summary(COUNT_LIMIT, source, statuses);
    }

    /** {@link #summary(String, EventStatus...)} with counts bounded by {@code limit} instead. */
    public Summary summary(int limit, String source, EventStatus... statuses) {
        EventStatus[] all = EventStatus.values();
        var sql = new StringBuilder("SELECT 0");
        var parameters = new java.util.ArrayList<Object>();
        for (EventStatus status : statuses) {
            sql.append(", ").append(BOUNDED.formatted(status.column(), limit));
            parameters.add(source);
        }
        for (EventStatus status : all) {
            sql.append(", ").append(status.open() ? OLDEST.formatted(status.column()) : "NULL");
            if (status.open()) {
                parameters.add(source);
            }
        }
        for (EventStatus status : all) {
            sql.append(", ").append(NEWEST.formatted(status.column()));
            parameters.add(source);
        }
        return inConnection(connection -> {
            try (PreparedStatement query = connection.prepareStatement(sql.toString())) {
                query.setQueryTimeout(TIMEOUT_SECONDS);
                for (int i = 0; i < parameters.size(); i++) {
                    query.setObject(i + 1, parameters.get(i));
                }
                try (ResultSet row = query.executeQuery()) {
                    row.next();
                    Map<EventStatus, Long> counts = new EnumMap<>(EventStatus.class);
                    int column = 2;
                    for (EventStatus status : statuses) {
                        counts.put(status, row.getLong(column++));
                    }
                    Instant oldest = null;
                    for (int i = 0; i < all.length; i++) {
                        oldest = earlier(oldest, row.getTimestamp(column++));
                    }
                    Instant newest = null;
                    for (int i = 0; i < all.length; i++) {
                        Timestamp at = row.getTimestamp(column++);
                        if (at != null && (newest == null || at.toInstant().isAfter(newest))) {
                            newest = at.toInstant();
                        }
                    }
                    return new Summary(counts, Optional.ofNullable(oldest), Optional.ofNullable(newest));
                }
            }
        });
    }

    private static Instant earlier(Instant so, Timestamp at) {
        return at == null || so != null && !at.toInstant().isBefore(so) ? so : at.toInstant();
    }

    /**
     * How many events the query selects (its status, source, type, error and time range; not its cursor), at most
     * {@code limit}: one bounded walk of an index ({@code received_event_by_status_and_source} with a source,
     * {@code received_event_by_status} without).
     */
    public long matching(EventQuery query, int limit) {
        var sql = new StringBuilder("SELECT COUNT(*) FROM (SELECT 1 FROM received_event WHERE 1 = 1");
        var parameters = new java.util.ArrayList<Object>();
        if (query.status() != null) {
            // Written in, as in BOUNDED: the plan must know the status to pick the index.
            sql.append(" AND status = '").append(query.status().column()).append("'");
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
        if (query.key() != null) {
            sql.append(" AND EXISTS (SELECT 1 FROM event_key k WHERE k.source = received_event.source"
                    + " AND k.event_id = received_event.event_id AND k.key_value = ? AND k.pointer IN (")
                    .append(String.join(", ", java.util.Collections.nCopies(query.key().pointers().size(), "?")))
                    .append("))");
            parameters.add(query.key().value());
            parameters.addAll(query.key().pointers());
        }
        sql.append(" LIMIT ").append(limit).append(") bounded");
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
