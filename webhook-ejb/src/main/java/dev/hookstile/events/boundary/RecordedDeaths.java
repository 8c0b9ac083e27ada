package dev.hookstile.events.boundary;

import dev.hookstile.events.control.EventAttemptStatements;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The deaths the history records, by window: what the notifier ({@code notify}) announces, read on the connection
 * of its transaction, which also moves its mark.
 */
public final class RecordedDeaths {

    private RecordedDeaths() {
    }

    /**
     * The deaths of one source and failure kind in a window.
     *
     * @param failure the history's failure kind ({@code transient}, {@code permanent}), {@code null} if none was noted
     * @param error   one of their errors
     */
    public record Group(String source, String failure, long count, Instant first, Instant last, String error) {
    }

    /** The first death at or after {@code from}, before {@code until}. */
    public static Optional<Instant> next(Connection connection, Instant from, Instant until) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(EventAttemptStatements.NEXT_DEATH)) {
            query.setTimestamp(1, Timestamp.from(from));
            query.setTimestamp(2, Timestamp.from(until));
            try (ResultSet row = query.executeQuery()) {
                Timestamp at = row.next() ? row.getTimestamp(1) : null;
                return Optional.ofNullable(at).map(Timestamp::toInstant);
            }
        }
    }

    /** The deaths from {@code from} until before {@code until}, by source and failure kind, in that order. */
    public static List<Group> of(Connection connection, Instant from, Instant until) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(EventAttemptStatements.DEATHS_OF_WINDOW)) {
            query.setTimestamp(1, Timestamp.from(from));
            query.setTimestamp(2, Timestamp.from(until));
            try (ResultSet rows = query.executeQuery()) {
                var groups = new ArrayList<Group>();
                while (rows.next()) {
                    groups.add(new Group(rows.getString(1), rows.getString(2), rows.getLong(3),
                            rows.getTimestamp(4).toInstant(), rows.getTimestamp(5).toInstant(), rows.getString(6)));
                }
                return groups;
            }
        }
    }
}
