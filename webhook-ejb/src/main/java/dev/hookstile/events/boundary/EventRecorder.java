package dev.hookstile.events.boundary;

import dev.hookstile.api.WebhookEvent;
import dev.hookstile.events.control.EventAttemptStatements;
import dev.hookstile.events.control.EventBodyStatements;
import dev.hookstile.events.control.EventKeyStatements;
import dev.hookstile.events.control.ReceivedEventStatements;
import dev.hookstile.events.entity.EventBody;
import dev.hookstile.events.entity.EventStatus;
import dev.hookstile.platform.StatementFailure;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The dedup claim and the event's recorded state. Everything runs in the caller's JTA transaction: the claim row,
 * the handlers' work and the attempt's history commit together or not at all, and a rolled-back attempt leaves no
 * claim behind, so the next attempt can claim again.
 *
 * <p>Plain JDBC on the persistence context's own connection ({@code EntityManager.unwrap(Connection.class)}, bound
 * to the JTA transaction): these statements and a handler's JPA work run on one connection and commit once. Through
 * EclipseLink's native queries each statement cost more CPU than the database spent on it (profiled). Not a second
 * connection from the data source: the container did not make it share the persistence context's one, and a
 * handler's work then committed after the claim instead of with it (ProcessingIT caught it).
 */
@ApplicationScoped
public class EventRecorder {

    /** A null of a binary column: PostgreSQL does not take a text null for it. */
    private static final Object NO_BYTES = new Object();
    /** A null of an integer column, for the same reason. */
    private static final Object NO_NUMBER = new Object();

    @Inject
    EntityManager em;

    /**
     * A new event to claim, and the status it will have if the transaction commits: nobody sees it before the
     * transaction, handlers included, commits.
     *
     * @param bodyDigest the digest of its body stored shared ({@link #storeBodies}), or {@code null}: its own copy
     */
    public record NewClaim(WebhookEvent event, String headersJson, String bodyDigest, EventStatus status) {
    }

    /**
     * Claims events never recorded before, in one round trip, in the order given (callers sort them, so that two
     * transactions claiming overlapping events lock their rows in the same order and never deadlock). An event is
     * not claimed when its row exists: another delivery owns it (committed, or still in flight; PostgreSQL then
     * waits for that transaction before answering); or when the retention deleted it and left its tombstone.
     *
     * @return for each, whether this transaction claimed it
     * @throws StatementFailure also when the driver does not say which rows it inserted: the caller must roll back
     */
    public boolean[] claimNew(List<NewClaim> claims, Instant now) {
        Timestamp at = Timestamp.from(now);
        var rows = new ArrayList<Object[]>(claims.size());
        for (NewClaim claim : claims) {
            WebhookEvent event = claim.event();
            rows.add(new Object[]{event.source(), event.eventId(), event.provider(), event.type(),
                    claim.status().column(), event.attempt(), Timestamp.from(event.receivedAt()), at, at,
                    claim.headersJson(), ownPayload(event, claim.bodyDigest()), claim.bodyDigest(), event.source(),
                    event.eventId()});
        }
        int[] counts = updateAll(ReceivedEventStatements.CLAIM, rows);
        boolean[] claimed = new boolean[counts.length];
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] != 0 && counts[i] != 1) {
                throw new StatementFailure(new SQLException("the driver answered " + counts[i] + " for a claim"));
            }
            claimed[i] = counts[i] == 1;
        }
        return claimed;
    }

    /**
     * Stores bodies that events of one delivery share, each once, unless stored already: before the claims that
     * refer to them. In digest order, so that transactions storing the same bodies wait for each other in one order.
     *
     * @param bodies each body by its digest ({@link EventBody#digestOf})
     */
    public void storeBodies(Map<String, byte[]> bodies, Instant now) {
        if (bodies.isEmpty()) {
            return;
        }
        Timestamp at = Timestamp.from(now);
        var rows = new ArrayList<Object[]>(bodies.size());
        new TreeMap<>(bodies).forEach((digest, body) -> rows.add(new Object[]{digest, body, at}));
        updateAll(EventBodyStatements.STORE, rows);
    }

    /** The payload column: the event's body, unless the row refers to a body stored shared. */
    private static Object ownPayload(WebhookEvent event, String bodyDigest) {
        return bodyDigest == null ? event.payload() : NO_BYTES;
    }

    /**
     * A line of an event's history, to be added with others.
     *
     * @param durationMillis how long the try took, from its start to its outcome; {@code null} when no try ran
     */
    public record AttemptLine(WebhookEvent event, int attempt, String outcome, String failure, String error,
                              Instant at, Integer durationMillis) {
    }

    /** Adds these lines to their events' histories, in one round trip. */
    public void recordAttempts(List<AttemptLine> lines) {
        var rows = new ArrayList<Object[]>(lines.size());
        for (AttemptLine line : lines) {
            rows.add(new Object[]{line.event().source(), line.event().eventId(), line.attempt(), line.outcome(),
                    line.failure(), line.error(), Timestamp.from(line.at()), number(line.durationMillis())});
        }
        updateAll(EventAttemptStatements.RECORD, rows);
    }

    /** The value at one of its source's search keys of an event claimed in this transaction. */
    public record KeyValue(WebhookEvent event, String pointer, String value) {
    }

    /** Records the search keys of events claimed in this transaction, in one round trip; none is written twice. */
    public void recordKeys(List<KeyValue> keys) {
        if (keys.isEmpty()) {
            return;
        }
        var rows = new ArrayList<Object[]>(keys.size());
        for (KeyValue key : keys) {
            rows.add(new Object[]{key.event().source(), key.event().eventId(), key.pointer(), key.value(),
                    Timestamp.from(key.event().receivedAt())});
        }
        updateAll(EventKeyStatements.RECORD, rows);
    }

    /**
     * What is recorded of an event's attempts.
     *
     * @param attempts   attempts so far
     * @param replayBase attempts it had used when it was last replayed (0 if never): its allowance counts from there
     * @param status     its status column
     */
    public record State(int attempts, int replayBase, String status) {

        /** Whether a delivery may still record a failure over it: it is not finished. */
        public boolean open() {
            return status != null && EventStatus.of(status).open();
        }
    }

    /**
     * Claims an event recorded as {@code retrying} or queued again by a replay, counting {@code tries} more
     * attempts. Its state after the claim, or empty when the event is not claimable (finished, dead, or owned by a
     * concurrent delivery).
     */
    public Optional<State> reclaim(WebhookEvent event, EventStatus status, int tries, Instant now) {
        Timestamp at = Timestamp.from(now);
        if (update(ReceivedEventStatements.RECLAIM, status.column(), tries, at, at, event.source(),
                event.eventId()) == 0) {
            return Optional.empty();
        }
        return query(ReceivedEventStatements.ATTEMPTS, event.source(), event.eventId())
                .map(row -> new State(row.attempts(), row.replayBase(), status.column()));
    }

    /** The event's state, its row locked until the transaction ends; empty if it is not recorded. */
    public Optional<State> lock(String source, String eventId) {
        return query(ReceivedEventStatements.LOCK_STATE, source, eventId);
    }

    /**
     * Records a failure of an event never recorded before; {@code false} if a concurrent delivery recorded it, or it
     * has a tombstone (processed, and deleted by the retention).
     */
    public boolean insertFailure(WebhookEvent event, String headersJson, String bodyDigest, EventStatus status,
                                 int attempts, String error, Instant now) {
        return update(ReceivedEventStatements.RECORD_FAILURE, event.source(), event.eventId(), event.provider(),
                event.type(), status.column(), attempts, Timestamp.from(event.receivedAt()), Timestamp.from(now),
                error, headersJson, ownPayload(event, bodyDigest), bodyDigest, event.source(), event.eventId()) == 1;
    }

    /**
     * Records a failure of an event recorded as {@code retrying} or {@code received}; {@code false} when it is
     * finished meanwhile (a completed event is never turned back into a failed one).
     */
    public boolean updateFailure(WebhookEvent event, EventStatus status, int attempts, String error, Instant now) {
        return update(ReceivedEventStatements.UPDATE_FAILURE, status.column(), attempts, error, Timestamp.from(now),
                event.source(), event.eventId()) == 1;
    }

    /** Sets the status of an event claimed in this transaction, with the reason an operator reads. */
    public void setStatus(WebhookEvent event, EventStatus status, String reason) {
        update(ReceivedEventStatements.SET_STATUS, status.column(), reason, event.source(), event.eventId());
    }

    private static Object number(Integer value) {
        return value == null ? NO_NUMBER : value;
    }

    private int update(String sql, Object... parameters) {
        try (PreparedStatement statement = connection().prepareStatement(sql)) {
            bind(statement, parameters);
            return statement.executeUpdate();
        } catch (SQLException e) {
            throw new StatementFailure(e);
        }
    }

    private int[] updateAll(String sql, List<Object[]> rows) {
        try (PreparedStatement statement = connection().prepareStatement(sql)) {
            for (Object[] row : rows) {
                bind(statement, row);
                statement.addBatch();
            }
            return statement.executeBatch();
        } catch (SQLException e) {
            throw new StatementFailure(e);
        }
    }

    /** A row of (attempts, replay base[, status]); the status defaults to none when the statement has no third column. */
    private Optional<State> query(String sql, Object... parameters) {
        try (PreparedStatement statement = connection().prepareStatement(sql)) {
            bind(statement, parameters);
            try (ResultSet rows = statement.executeQuery()) {
                if (!rows.next()) {
                    return Optional.empty();
                }
                String status = rows.getMetaData().getColumnCount() > 2 ? rows.getString(3) : null;
                return Optional.of(new State(rows.getInt(1), rows.getInt(2), status));
            }
        } catch (SQLException e) {
            throw new StatementFailure(e);
        }
    }

    /** The transaction's connection, owned by the persistence context: never closed here. */
    private Connection connection() {
        return em.unwrap(Connection.class);
    }

    private static void bind(PreparedStatement statement, Object[] parameters) throws SQLException {
        for (int i = 0; i < parameters.length; i++) {
            Object value = parameters[i];
            if (value == null) {
                statement.setNull(i + 1, Types.VARCHAR);
            } else if (value == NO_BYTES) {
                statement.setNull(i + 1, Types.BINARY);
            } else if (value == NO_NUMBER) {
                statement.setNull(i + 1, Types.INTEGER);
            } else if (value instanceof byte[] bytes) {
                statement.setBytes(i + 1, bytes);
            } else if (value instanceof Timestamp timestamp) {
                statement.setTimestamp(i + 1, timestamp);
            } else if (value instanceof Integer number) {
                statement.setInt(i + 1, number);
            } else {
                statement.setString(i + 1, (String) value);
            }
        }
    }
}
