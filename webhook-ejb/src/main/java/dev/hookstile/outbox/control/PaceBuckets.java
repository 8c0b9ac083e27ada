package dev.hookstile.outbox.control;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A destination's pace ({@code _DESTINATION_RATE}) as a token bucket in the database ({@code destination_pace}, V21):
 * the relay of every instance takes its tokens from the same row under its lock, in the transaction that takes the
 * due forwardings, so together they never send faster than the rate (one second's worth of burst).
 */
final class PaceBuckets {

    private PaceBuckets() {
    }

    /** Keeps of each paced destination's due forwardings what its bucket grants; defers the rest, evenly. */
    static void pace(Connection connection, List<OutboxEntries.Due> due, Map<List<String>, Double> paces,
                     Instant now) throws SQLException {
        var byDestination = new LinkedHashMap<List<String>, List<OutboxEntries.Due>>();
        for (OutboxEntries.Due entry : due) {
            List<String> destination = List.of(entry.source(), entry.destination());
            if (entry.effect() == 0 && paces.containsKey(destination)) {
                byDestination.computeIfAbsent(destination, d -> new ArrayList<>()).add(entry);
            }
        }
        for (var paced : byDestination.entrySet()) {
            double perSecond = paces.get(paced.getKey());
            List<OutboxEntries.Due> entries = paced.getValue();
            Grant grant = grant(connection, paced.getKey(), perSecond, entries.size(), now);
            List<OutboxEntries.Due> deferred = entries.subList(grant.granted(), entries.size());
            if (deferred.isEmpty()) {
                continue;
            }
            // After the last one deferred before (by any turn or instance), one token's time apart, in order.
            Instant from = grant.bookedUntil() != null && grant.bookedUntil().isAfter(now) ? grant.bookedUntil() : now;
            Instant last = from;
            try (PreparedStatement defer = connection.prepareStatement(OutboxStatements.DEFER)) {
                for (int i = 0; i < deferred.size(); i++) {
                    last = from.plusMillis((long) Math.ceil((i + 1) * 1000 / perSecond));
                    defer.setTimestamp(1, Timestamp.from(last));
                    defer.setLong(2, deferred.get(i).id());
                    defer.addBatch();
                }
                defer.executeBatch();
            }
            try (PreparedStatement book = connection.prepareStatement(OutboxStatements.PACE_BOOK)) {
                book.setTimestamp(1, Timestamp.from(last));
                book.setString(2, paced.getKey().get(0));
                book.setString(3, paced.getKey().get(1));
                book.executeUpdate();
            }
            due.removeAll(new ArrayList<>(deferred));
        }
    }

    /** Tokens taken from a bucket, and when its last deferred forwarding is due ({@code null}: none). */
    record Grant(int granted, Instant bookedUntil) {
    }

    /**
     * Takes up to {@code wanted} tokens from the destination's bucket, under its row lock (every instance's relay
     * takes from the same row), after refilling it for the time since it was last taken from: at most one second's
     * worth, so a destination idle for an hour gets one second of burst, not an hour's.
     *
     * @return how many it took, and until when forwardings are already deferred
     */
    static Grant grant(Connection connection, List<String> destination, double perSecond, int wanted, Instant now)
            throws SQLException {
        double burst = Math.max(1, perSecond);
        try (PreparedStatement create = connection.prepareStatement(OutboxStatements.PACE_CREATE)) {
            create.setString(1, destination.get(0));
            create.setString(2, destination.get(1));
            create.setDouble(3, burst);
            create.setTimestamp(4, Timestamp.from(now));
            create.executeUpdate();
        }
        double tokens;
        Instant refilledAt;
        Instant bookedUntil;
        try (PreparedStatement lock = connection.prepareStatement(OutboxStatements.PACE_LOCK)) {
            lock.setString(1, destination.get(0));
            lock.setString(2, destination.get(1));
            try (ResultSet row = lock.executeQuery()) {
                row.next();
                tokens = row.getDouble(1);
                refilledAt = row.getTimestamp(2).toInstant();
                bookedUntil = row.getTimestamp(3) == null ? null : row.getTimestamp(3).toInstant();
            }
        }
        // Another instance's clock may be ahead: time never runs backwards for the bucket.
        Instant at = now.isAfter(refilledAt) ? now : refilledAt;
        double available = Math.min(burst, tokens + Duration.between(refilledAt, at).toNanos() / 1e9 * perSecond);
        int granted = (int) Math.min(wanted, Math.floor(available));
        try (PreparedStatement take = connection.prepareStatement(OutboxStatements.PACE_TAKE)) {
            take.setDouble(1, available - granted);
            take.setTimestamp(2, Timestamp.from(at));
            take.setString(3, destination.get(0));
            take.setString(4, destination.get(1));
            take.executeUpdate();
        }
        return new Grant(granted, bookedUntil);
    }

}
