package dev.hookstile.events.control;

import dev.hookstile.events.entity.EventStatus;
import dev.hookstile.platform.StatementFailure;

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
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Deletes events the retention no longer keeps, a small batch per transaction, so that no transaction holds many
 * row locks or runs long, and processing and other instances go on meanwhile. Two instances sweeping at once each
 * delete what the other has not: the guarded delete of an event already gone deletes nothing.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class ExpiredEvents {

    /** How many events a batch deleted, by the status they had. */
    public record Deleted(int completed, int ignored) {

        public static final Deleted NONE = new Deleted(0, 0);

        public int total() {
            return completed + ignored;
        }

        public Deleted plus(Deleted other) {
            return new Deleted(completed + other.completed, ignored + other.ignored);
        }
    }

    @Inject
    EntityManager em;

    /**
     * Deletes up to {@code limit} of the source's completed and ignored events received before {@code cutoff}, with
     * their history, and the bodies they shared once no event uses them; each leaves its tombstone, in the same
     * transaction, so that no moment exists in which its id is forgotten.
     *
     * @return how many events were deleted, by status; fewer than {@code limit} in all when none are left
     */
    public Deleted deleteBatch(String source, Instant cutoff, int limit) {
        Connection connection = em.unwrap(Connection.class);
        try {
            List<String> ids = new ArrayList<>(limit);
            List<Timestamp> receivedAt = new ArrayList<>(limit);
            List<Boolean> completed = new ArrayList<>(limit);
            Set<String> bodies = new TreeSet<>();
            try (PreparedStatement query = connection.prepareStatement(ReceivedEventStatements.EXPIRED)) {
                query.setString(1, source);
                query.setTimestamp(2, Timestamp.from(cutoff));
                query.setTimestamp(3, Timestamp.from(cutoff));
                query.setInt(4, limit);
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        ids.add(rows.getString(1));
                        receivedAt.add(rows.getTimestamp(3));
                        completed.add(EventStatus.COMPLETED.column().equals(rows.getString(4)));
                        if (rows.getString(2) != null) {
                            bodies.add(rows.getString(2));
                        }
                    }
                }
            }
            if (ids.isEmpty()) {
                return Deleted.NONE;
            }
            int deleted = 0;
            int deletedCompleted = 0;
            try (PreparedStatement events = connection.prepareStatement(ReceivedEventStatements.DELETE_EXPIRED);
                 PreparedStatement history = connection.prepareStatement(EventAttemptStatements.DELETE_OF_EVENT);
                 PreparedStatement tombstones = connection.prepareStatement(EventTombstoneStatements.LEAVE)) {
                for (int i = 0; i < ids.size(); i++) {
                    String id = ids.get(i);
                    events.setString(1, source);
                    events.setString(2, id);
                    events.setTimestamp(3, Timestamp.from(cutoff));
                    if (events.executeUpdate() == 1) {
                        deleted++;
                        deletedCompleted += completed.get(i) ? 1 : 0;
                        history.setString(1, source);
                        history.setString(2, id);
                        history.addBatch();
                        tombstones.setString(1, source);
                        tombstones.setString(2, id);
                        tombstones.setTimestamp(3, receivedAt.get(i));
                        tombstones.addBatch();
                    }
                }
                if (deleted > 0) {
                    history.executeBatch();
                    tombstones.executeBatch();
                }
            }
            // A shared body goes with the last event that uses it; dead ones, kept, keep it too.
            try (PreparedStatement unused = connection.prepareStatement(EventBodyStatements.DELETE_UNUSED)) {
                for (String digest : bodies) {
                    unused.setString(1, digest);
                    unused.setString(2, digest);
                    unused.executeUpdate();
                }
            }
            return new Deleted(deletedCompleted, deleted - deletedCompleted);
        } catch (SQLException e) {
            throw new StatementFailure(e);
        }
    }

    /**
     * Deletes up to {@code limit} tombstones of events received before {@code cutoff}, of every source.
     *
     * @return how many were deleted; fewer than {@code limit} when none are left
     */
    public int deleteTombstones(Instant cutoff, int limit) {
        Connection connection = em.unwrap(Connection.class);
        try {
            var keys = new ArrayList<String[]>(limit);
            try (PreparedStatement query = connection.prepareStatement(EventTombstoneStatements.EXPIRED)) {
                query.setTimestamp(1, Timestamp.from(cutoff));
                query.setInt(2, limit);
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        keys.add(new String[]{rows.getString(1), rows.getString(2)});
                    }
                }
            }
            if (keys.isEmpty()) {
                return 0;
            }
            try (PreparedStatement delete = connection.prepareStatement(EventTombstoneStatements.DELETE)) {
                for (String[] key : keys) {
                    delete.setString(1, key[0]);
                    delete.setString(2, key[1]);
                    delete.addBatch();
                }
                delete.executeBatch();
            }
            return keys.size();
        } catch (SQLException e) {
            throw new StatementFailure(e);
        }
    }

    /** Deletes the source's body fingerprints of bodies received before {@code cutoff}. */
    public int deleteFingerprints(String source, Instant cutoff) {
        try (PreparedStatement delete = em.unwrap(Connection.class)
                .prepareStatement(BodyFingerprintStatements.DELETE_OLDER)) {
            delete.setString(1, source);
            delete.setTimestamp(2, Timestamp.from(cutoff));
            return delete.executeUpdate();
        } catch (SQLException e) {
            throw new StatementFailure(e);
        }
    }
}
