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
 * Deletes events the retention no longer keeps, a small batch at a time (its tombstones in one transaction, then
 * the events in another), so that no transaction holds many row locks or runs long, and processing and other
 * instances go on meanwhile. Two instances sweeping at once each
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

    /** An event of a batch the retention deletes, with what its deletion needs. */
    public record Expired(String eventId, Timestamp receivedAt, boolean completed, String bodyDigest) {
    }

    /**
     * The first of a batch's two transactions: up to {@code limit} of the source's completed and ignored events
     * received, and last changed, before {@code cutoff}, each given its tombstone, committed before any of them is
     * deleted ({@link #deleteTombstoned}).
     *
     * <p>Why two: a claim reads the tombstone guard in its statement's snapshot and, when the event's row is locked,
     * waits and inserts if the row is gone by then. Had the tombstone been left in the deleting transaction, a
     * delivery arriving while that transaction held the row would claim the event again once it committed
     * (EventLifeInterleavingTest found it). A claim that can find the row locked by the delete now started after the
     * tombstone was committed, and its guard sees it.
     *
     * @return the batch; fewer than {@code limit} when none are left
     */
    public List<Expired> leaveTombstones(String source, Instant cutoff, int limit) {
        Connection connection = em.unwrap(Connection.class);
        try {
            List<Expired> batch = new ArrayList<>(limit);
            try (PreparedStatement query = connection.prepareStatement(ReceivedEventStatements.EXPIRED)) {
                query.setString(1, source);
                query.setTimestamp(2, Timestamp.from(cutoff));
                query.setTimestamp(3, Timestamp.from(cutoff));
                query.setInt(4, limit);
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        batch.add(new Expired(rows.getString(1), rows.getTimestamp(3),
                                EventStatus.COMPLETED.column().equals(rows.getString(4)), rows.getString(2)));
                    }
                }
            }
            if (batch.isEmpty()) {
                return batch;
            }
            try (PreparedStatement tombstones = connection.prepareStatement(EventTombstoneStatements.LEAVE)) {
                for (Expired event : batch) {
                    tombstones.setString(1, source);
                    tombstones.setString(2, event.eventId());
                    tombstones.setTimestamp(3, event.receivedAt());
                    tombstones.addBatch();
                }
                tombstones.executeBatch();
            }
            return batch;
        } catch (SQLException e) {
            throw new StatementFailure(e);
        }
    }

    /**
     * The second transaction: deletes each event of the batch that is still finished well and unchanged since the
     * cut-off, with its history, and the bodies they shared once no event uses them. An event a replay queued again
     * between the two transactions is kept, and the tombstone left for it taken back while its row exists (a concurrent
     * sweep of another instance that deleted the row keeps it: its delete went first, and this one's found nothing).
     *
     * @return how many events were deleted, by status
     */
    public Deleted deleteTombstoned(String source, List<Expired> batch, Instant cutoff) {
        Connection connection = em.unwrap(Connection.class);
        try {
            int deleted = 0;
            int deletedCompleted = 0;
            Set<String> bodies = new TreeSet<>();
            try (PreparedStatement events = connection.prepareStatement(ReceivedEventStatements.DELETE_EXPIRED);
                 PreparedStatement history = connection.prepareStatement(EventAttemptStatements.DELETE_OF_EVENT);
                 PreparedStatement takeBack = connection.prepareStatement(EventTombstoneStatements.TAKE_BACK)) {
                for (Expired event : batch) {
                    events.setString(1, source);
                    events.setString(2, event.eventId());
                    events.setTimestamp(3, Timestamp.from(cutoff));
                    if (events.executeUpdate() == 1) {
                        deleted++;
                        deletedCompleted += event.completed() ? 1 : 0;
                        history.setString(1, source);
                        history.setString(2, event.eventId());
                        history.addBatch();
                        if (event.bodyDigest() != null) {
                            bodies.add(event.bodyDigest());
                        }
                    } else {
                        takeBack.setString(1, source);
                        takeBack.setString(2, event.eventId());
                        takeBack.setString(3, source);
                        takeBack.setString(4, event.eventId());
                        takeBack.executeUpdate();
                    }
                }
                if (deleted > 0) {
                    history.executeBatch();
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
