package dev.hookstile.events.boundary;

import dev.hookstile.events.control.ReceivedEventStatements;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/**
 * Whether events are recorded, by key: ingest's duplicate lookup ({@code dedup}) asks on a connection of its own,
 * whose timeouts it sets, without a transaction.
 */
public final class RecordedKeys {

    private RecordedKeys() {
    }

    /**
     * The ids among these that are recorded for the source: one primary-key probe each, in the order given. A
     * database that answers each probe slowly must not hold the caller for probes × its bound: no probe starts after
     * {@code deadlineNanos} ({@link System#nanoTime()}), and the ids not asked by then are not in the answer.
     */
    public static Set<String> among(Connection connection, String source, Collection<String> eventIds,
                                    long deadlineNanos) throws SQLException {
        var recorded = new HashSet<String>();
        try (PreparedStatement statement = connection.prepareStatement(ReceivedEventStatements.RECORDED)) {
            for (String eventId : eventIds) {
                if (System.nanoTime() - deadlineNanos > 0) {
                    break;
                }
                statement.setString(1, source);
                statement.setString(2, eventId);
                try (ResultSet rows = statement.executeQuery()) {
                    if (rows.next()) {
                        recorded.add(eventId);
                    }
                }
            }
        }
        return recorded;
    }
}
