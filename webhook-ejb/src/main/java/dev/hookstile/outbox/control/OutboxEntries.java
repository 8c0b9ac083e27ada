package dev.hookstile.outbox.control;

import dev.hookstile.platform.StatementFailure;

import dev.hookstile.platform.boundary.ContainerResources;
import jakarta.annotation.PostConstruct;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The outbox's state changes, each in a short transaction of its own: no transaction is open while a request is on
 * the wire, so a slow destination holds no database connection or lock.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class OutboxEntries {

    /** A due entry, taken for {@code lease}, with what its delivery needs. */
    /**
     * @param effect      0 for the source's forwarding, n for a handler's n-th effect of the event
     * @param contentType an effect's {@code Content-Type}; {@code null} for a forwarding
     * @param payload     the event's body for a forwarding, the effect's own for an effect
     * @param traceParent the context of the try that scheduled it; {@code null} for a notification, or a row
     *                    written before the outbox kept it
     */
    public record Due(long id, String source, String eventId, String destination, int attempts, String type,
                      byte[] payload, int effect, String contentType, String traceParent) {
    }

    /** How far a held forwarding's next attempt is set: never reached, the release sets it back. */
    static final Duration HELD_FOR = Duration.ofDays(3650);

    @Inject
    EntityManager em;

    private boolean embedded;
    private String dueQuery;

    @PostConstruct
    void chooseQueries() {
        onEmbeddedDatabase(ContainerResources.embeddedDatabase());
    }

    /** The embedded database serves one instance: nothing to skip, and H2 has no {@code SKIP LOCKED}. */
    void onEmbeddedDatabase(boolean embedded) {
        this.embedded = embedded;
        this.dueQuery = embedded ? OutboxStatements.DUE : OutboxStatements.DUE_LOCKED;
    }

    /**
     * Takes up to {@code limit} due entries for {@code lease}: until then no instance takes them again.
     *
     * @param notificationsTo the URL this instance sends notifications to; {@code null} takes none
     */
    public List<Due> take(Instant now, Duration lease, int limit, String notificationsTo) {
        return take(now, lease, limit, notificationsTo, Map.of()).due();
    }

    /**
     * What one take gave: the entries to send now, and whether it found {@code limit} due ones (before a paused
     * destination's were set aside and a paced one's deferred), so that the relay takes again at once.
     */
    public record Taken(List<Due> due, boolean full) {
    }

    /**
     * As {@link #take(Instant, Duration, int, String)}, each paced destination's forwardings ({@code [source,
     * destination]} to forwardings a second) only as many as its bucket grants; the others due again when it will
     * have tokens for them, in their order.
     */
    public Taken take(Instant now, Duration lease, int limit, String notificationsTo,
                      Map<List<String>, Double> paces) {
        Connection connection = em.unwrap(Connection.class);
        try {
            Set<List<String>> paused = new HashSet<>();
            try (PreparedStatement query = connection.prepareStatement(OutboxStatements.PAUSED);
                 ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    paused.add(List.of(rows.getString(1), rows.getString(2)));
                }
            }
            try (PreparedStatement release = connection.prepareStatement(OutboxStatements.RELEASE)) {
                release.executeUpdate();
            }
            List<Due> due = new ArrayList<>();
            if (!embedded) {
                try (PreparedStatement plan = connection.prepareStatement(OutboxStatements.WALK_THE_INDEX)) {
                    plan.execute();
                }
            }
            try (PreparedStatement query = connection.prepareStatement(dueQuery)) {
                query.setTimestamp(1, Timestamp.from(now));
                query.setString(2, notificationsTo);
                query.setInt(3, limit);
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        due.add(new Due(rows.getLong(1), rows.getString(2), rows.getString(3), rows.getString(4),
                                rows.getInt(5), rows.getString(6), rows.getBytes(7), rows.getInt(8),
                                rows.getString(9), rows.getString(10)));
                    }
                }
            }
            int found = due.size();
            // A paused destination's forwardings are set aside, not sent; a handler's effect (another URL) goes.
            List<Due> held = paused.isEmpty() ? List.of() : due.stream().filter(entry -> entry.effect() == 0
                    && paused.contains(List.of(entry.source(), entry.destination()))).toList();
            if (!held.isEmpty()) {
                due.removeAll(held);
                try (PreparedStatement hold = connection.prepareStatement(OutboxStatements.HOLD)) {
                    for (Due entry : held) {
                        hold.setTimestamp(1, Timestamp.from(now.plus(HELD_FOR)));
                        hold.setLong(2, entry.id());
                        hold.addBatch();
                    }
                    hold.executeBatch();
                }
            }
            if (!paces.isEmpty()) {
                PaceBuckets.pace(connection, due, paces, now);
            }
            try (PreparedStatement update = connection.prepareStatement(OutboxStatements.LEASE)) {
                for (Due entry : due) {
                    update.setTimestamp(1, Timestamp.from(now.plus(lease)));
                    update.setLong(2, entry.id());
                    update.addBatch();
                }
                update.executeBatch();
            }
            return new Taken(due, found == limit);
        } catch (SQLException e) {
            throw new StatementFailure(e);
        }
    }

    /**
     * Pauses a destination for every instance: from the relay's next turn its forwardings are held, not sent.
     *
     * @return {@code false} when it was paused already (nothing changed)
     */
    public boolean pause(String source, String destination, Instant now) {
        return update(OutboxStatements.PAUSE, source, destination, Timestamp.from(now)) == 1;
    }

    /**
     * Resumes a paused destination: its held forwardings are due again at once, oldest first.
     *
     * @return {@code false} when it was not paused
     */
    public boolean resume(String source, String destination) {
        boolean resumed = update(OutboxStatements.RESUME, source, destination) == 1;
        update(OutboxStatements.RELEASE);
        return resumed;
    }

    /** When each paused destination ({@code [source, destination]}) was paused. */
    public Map<List<String>, Instant> paused() {
        try (PreparedStatement query = em.unwrap(Connection.class).prepareStatement(OutboxStatements.PAUSED);
             ResultSet rows = query.executeQuery()) {
            var paused = new HashMap<List<String>, Instant>();
            while (rows.next()) {
                paused.put(List.of(rows.getString(1), rows.getString(2)), rows.getTimestamp(3).toInstant());
            }
            return paused;
        } catch (SQLException e) {
            throw new StatementFailure(e);
        }
    }

    /** One statement with its parameters in order, on the transaction's connection: the rows it changed. */
    private int update(String sql, Object... parameters) {
        try (PreparedStatement statement = em.unwrap(Connection.class).prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            return statement.executeUpdate();
        } catch (SQLException e) {
            throw new StatementFailure(e);
        }
    }

    /** Delivered, all in one statement batch: the common answer costs one short transaction per batch. */
    public void delivered(List<Long> ids, Instant at) {
        if (ids.isEmpty()) {
            return;
        }
        try (PreparedStatement update = em.unwrap(Connection.class).prepareStatement(OutboxStatements.DELIVER)) {
            Timestamp when = Timestamp.from(at);
            for (long id : ids) {
                update.setTimestamp(1, when);
                update.setLong(2, id);
                update.addBatch();
            }
            update.executeBatch();
        } catch (SQLException e) {
            throw new StatementFailure(e);
        }
    }

    /** A transient failure: tried again at {@code next}. */
    public void retryAt(long id, Instant next, String error) {
        update(OutboxStatements.RETRY, Timestamp.from(next), bounded(error), id);
    }

    /** A permanent failure, or the attempts used up: kept, visible, never sent again by itself. */
    public void dead(long id, String error) {
        update(OutboxStatements.BURY, bounded(error), id);
    }

    /** An operator's replay: a delivered or dead entry due again now; {@code false} when none such exists. */
    public boolean replay(long id, Instant now) {
        return update(OutboxStatements.REPLAY, Timestamp.from(now), id) == 1;
    }

    private static String bounded(String error) {
        String line = error == null ? "" : error.replaceAll("\\p{Cntrl}+", " ");
        return line.length() > 4000 ? line.substring(0, 4000) : line;
    }
}
