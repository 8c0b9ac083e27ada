package dev.hookstile.outbox.boundary;

import dev.hookstile.platform.StatementFailure;

import dev.hookstile.outbox.control.OutboxEntries;
import dev.hookstile.outbox.control.OutboxStatements;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The outbox for operators: deliveries listed and read, and a finished one sent again. */
@Stateless
public class Forwardings {

    public enum Replay {
        /** Pending again, due now: the relay sends it with its original {@code Idempotency-Key}. */
        QUEUED,
        /** Still pending: the relay is on it already. */
        ALREADY_PENDING,
        /** Never sent, by design: the destination's filter does not match the event's body. */
        FILTERED,
        NOT_FOUND
    }

    @Inject
    EntityManager em;

    @Inject
    OutboxEntries entries;

    /** One page, newest first. */
    public List<Forwarding> list(ForwardingQuery query) {
        var sql = new StringBuilder(OutboxStatements.LIST).append(" WHERE 1 = 1");
        List<Object> parameters = new ArrayList<>();
        if (query.source() != null) {
            sql.append(" AND o.source = ?");
            parameters.add(query.source());
        }
        if (query.eventId() != null) {
            sql.append(" AND o.event_id = ?");
            parameters.add(query.eventId());
        }
        if (query.status() != null) {
            sql.append(" AND o.status = ?");
            parameters.add(query.status());
        }
        if (query.type() != null) {
            sql.append(" AND e.type = ?");
            parameters.add(query.type());
        }
        if (query.since() != null) {
            sql.append(" AND o.created_at >= ?");
            parameters.add(Timestamp.from(query.since()));
        }
        if (query.until() != null) {
            sql.append(" AND o.created_at < ?");
            parameters.add(Timestamp.from(query.until()));
        }
        if (query.afterId() != null) {
            sql.append(" AND o.id < ?");
            parameters.add(query.afterId());
        }
        sql.append(" ORDER BY o.id DESC LIMIT ?");
        parameters.add(query.limit());
        return select(sql.toString(), parameters.toArray());
    }

    public Optional<Forwarding> find(long id) {
        return select(OutboxStatements.LIST + " WHERE o.id = ?", id).stream().findFirst();
    }

    /**
     * A delivered or dead delivery made pending again with its attempts reset: sent once more under the same
     * {@code Idempotency-Key}, so a destination that deduplicates on it does not apply it twice.
     */
    public Replay replay(long id, Instant now) {
        if (entries.replay(id, now)) {
            return Replay.QUEUED;
        }
        return find(id).map(forwarding -> Forwarding.FILTERED.equals(forwarding.status()) ? Replay.FILTERED
                : Replay.ALREADY_PENDING).orElse(Replay.NOT_FOUND);
    }

    /**
     * Pauses a source's destination, on every instance and across restarts: its forwardings are held, created and
     * counted but not sent, until {@link #resume}; one already on the wire finishes.
     *
     * @return {@code false} when it was paused already
     */
    public boolean pause(String source, String destination, Instant now) {
        return entries.pause(source, destination, now);
    }

    /** Resumes it: what it held is sent in order of creation at its pace. {@code false} when it was not paused. */
    public boolean resume(String source, String destination) {
        return entries.resume(source, destination);
    }

    /** When each paused destination was paused, by {@code [source, destination]}. */
    public Map<List<String>, Instant> paused() {
        return entries.paused();
    }

    /**
     * How many of a source's forwardings to a destination are in a status ({@code pending}, {@code dead}), at most
     * {@code limit}: a bounded walk of the {@code (status, next_attempt_at)} index, never a count of the outbox.
     */
    public long count(String source, String destination, String status, int limit) {
        if (!OutboxStatements.PENDING.equals(status) && !OutboxStatements.DELIVERED.equals(status)
                && !OutboxStatements.DEAD.equals(status)) {
            throw new IllegalArgumentException("no outbox status " + status);
        }
        try (PreparedStatement statement = em.unwrap(Connection.class).prepareStatement(
                OutboxStatements.COUNT.formatted(status, limit))) {
            statement.setQueryTimeout(5);
            bind(statement, source, destination);
            try (ResultSet row = statement.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        } catch (SQLException e) {
            throw new StatementFailure(e);
        }
    }

    private List<Forwarding> select(String sql, Object... parameters) {
        try (PreparedStatement statement = em.unwrap(Connection.class).prepareStatement(sql)) {
            bind(statement, parameters);
            List<Forwarding> deliveries = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    deliveries.add(new Forwarding(rows.getLong(1), rows.getString(2), rows.getString(3),
                            rows.getString(4), rows.getString(5), rows.getString(6), rows.getInt(7),
                            instant(rows.getTimestamp(8)), instant(rows.getTimestamp(9)),
                            instant(rows.getTimestamp(10)), rows.getString(11), rows.getInt(12)));
                }
            }
            return deliveries;
        } catch (SQLException e) {
            throw new StatementFailure(e);
        }
    }

    private static void bind(PreparedStatement statement, Object... parameters) throws SQLException {
        for (int i = 0; i < parameters.length; i++) {
            statement.setObject(i + 1, parameters[i]);
        }
    }

    private static Instant instant(Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }
}
