package dev.hookstile.bench.plain;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The handler: one row per event in {@code bench_handled}, the same work as the Hookstile benchmark's handler. On the
 * worker's connection, so the row commits with the event's status or not at all.
 */
public class HandledRow {

    private static final String INSERT = "INSERT INTO bench_handled (source, event_id) VALUES (?, ?)";

    public void handle(Connection connection, String source, String eventId, String type, byte[] payload)
            throws SQLException {
        try (var insert = connection.prepareStatement(INSERT)) {
            insert.setString(1, source);
            insert.setString(2, eventId);
            insert.executeUpdate();
        }
    }
}
