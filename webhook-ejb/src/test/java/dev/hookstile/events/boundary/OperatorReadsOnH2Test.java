package dev.hookstile.events.boundary;

import dev.hookstile.events.entity.EventStatus;
import dev.hookstile.platform.boundary.SchemaMigration;
import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The operator API's bounded reads on the embedded database (H2 in PostgreSQL mode, the quick start's), after every
 * migration: the same SQL as on PostgreSQL must run there too.
 */
class OperatorReadsOnH2Test {

    private static final Instant T0 = Instant.parse("2026-11-25T12:00:00Z");
    private static JdbcDataSource h2;

    @BeforeAll
    static void migrateAndRecord() throws SQLException {
        h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:operator-reads;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH"
                + ";DB_CLOSE_DELAY=-1");
        Flyway.configure().dataSource(h2).locations("classpath:db/migration").table("hookstile_schema_history")
                .placeholders(SchemaMigration.placeholders(false)).load().migrate();
        try (Connection connection = h2.getConnection();
             PreparedStatement insert = connection.prepareStatement("""
                     INSERT INTO received_event (source, event_id, provider, type, status, attempts, received_at,
                                                 updated_at, last_error, headers, payload)
                     VALUES (?, ?, 'github', ?, ?, 1, ?, ?, ?, '{}', X'7b7d')""")) {
            record(insert, "gh", "1", "push", "completed", 1, null);
            record(insert, "gh", "2", "push", "dead", 2, "refused");
            record(insert, "gh", "3", "push", "dead", 3, "refused");
            record(insert, "gh", "4", "pull_request", "dead", 4, "timeout");
            record(insert, "gh", "5", "push", "retrying", 5, "refused");
            record(insert, "gh", "6", "100%_off", "completed", 6, null);
            record(insert, "pay", "7", "invoice.paid", "received", 7, null);
        }
        try (Connection connection = h2.getConnection();
             PreparedStatement key = connection.prepareStatement("""
                     INSERT INTO event_key (source, event_id, pointer, key_value, received_at) VALUES (?, ?, ?, ?, ?)""")) {
            for (String[] row : new String[][] {{"gh", "2", "/customer", "cus_9"}, {"gh", "3", "/customer", "cus_8"},
                    {"gh", "4", "/buyer/customer", "cus_9"}, {"gh", "4", "/id", "cus_9"}}) {
                key.setString(1, row[0]);
                key.setString(2, row[1]);
                key.setString(3, row[2]);
                key.setString(4, row[3]);
                key.setTimestamp(5, Timestamp.from(T0));
                key.executeUpdate();
            }
        }
    }

    @Test
    void aPreviewCountsTheEventsOfAKeysValueOnceEach() {
        var counts = counts();
        var customer = new EventQuery.Key(java.util.Set.of("/customer", "/buyer/customer"), "cus_9");
        var any = new EventQuery.Key(java.util.Set.of("/customer", "/buyer/customer", "/id"), "cus_9");

        assertEquals(2, counts.matching(withKey(EventStatus.DEAD, customer), 100));
        assertEquals(2, counts.matching(withKey(EventStatus.DEAD, any), 100), "an event with two matching keys, once");
        assertEquals(0, counts.matching(withKey(EventStatus.COMPLETED, customer), 100));
    }

    private static EventQuery withKey(EventStatus status, EventQuery.Key key) {
        return new EventQuery("gh", status, null, null, null, null, 1, false, null, null, key);
    }

    @Test
    void countsAreBoundedAndTheOldestWaitingAndNewestEventsFound() {
        var counts = counts();

        assertEquals(Map.of(EventStatus.RECEIVED, 0L, EventStatus.COMPLETED, 2L, EventStatus.IGNORED, 0L,
                EventStatus.RETRYING, 1L, EventStatus.DEAD, 3L), counts.bySource("gh"));
        assertEquals(T0.plusSeconds(5), counts.oldestWaiting("gh").orElseThrow());
        assertEquals(T0.plusSeconds(7), counts.oldestWaiting("pay").orElseThrow());
        assertEquals(T0.plusSeconds(6), counts.newest("gh").orElseThrow());
        assertFalse(counts.oldestWaiting("shop").isPresent());
    }

    @Test
    void aPreviewMatchesTypesAsPrefixesWithTheirWildcardsAsCharactersOrExactlyAndErrorsExactly() {
        var counts = counts();

        assertEquals(3, counts.matching(query("gh", EventStatus.DEAD, "pu", false, null), 100), "push, pull_request");
        assertEquals(0, counts.matching(query("gh", EventStatus.DEAD, "pu", true, null), 100));
        assertEquals(2, counts.matching(query("gh", EventStatus.DEAD, "push", true, "refused"), 100));
        assertEquals(1, counts.matching(query("gh", EventStatus.DEAD, "push", true, "refused"), 1), "bounded");
        assertEquals(1, counts.matching(query("gh", EventStatus.COMPLETED, "100%_", false, null), 100));
        assertEquals(0, counts.matching(query("gh", EventStatus.COMPLETED, "100_", false, null), 100));
    }

    @Test
    void deadEventsAreGroupedNewestFirst() {
        var groups = new DeadGroups();
        groups.dataSource = h2;

        DeadGroups.Result result = groups.of("gh", null, null);

        assertFalse(result.sampled());
        assertEquals(new DeadGroups.Group("gh", "push", "refused", 2, T0.plusSeconds(3)), result.groups().get(0));
        assertEquals(new DeadGroups.Group("gh", "pull_request", "timeout", 1, T0.plusSeconds(4)),
                result.groups().get(1));
        assertEquals(1, groups.of(null, T0.plusSeconds(4), null).groups().size(), "received since");
    }

    private static EventCounts counts() {
        var counts = new EventCounts();
        counts.dataSource = h2;
        return counts;
    }

    private static EventQuery query(String source, EventStatus status, String type, boolean exact, String error) {
        return new EventQuery(source, status, type, null, null, null, 1, exact, error, null, null);
    }

    private static void record(PreparedStatement insert, String source, String id, String type, String status,
                               int second, String error) throws SQLException {
        insert.setString(1, source);
        insert.setString(2, id);
        insert.setString(3, type);
        insert.setString(4, status);
        insert.setTimestamp(5, Timestamp.from(T0.plusSeconds(second)));
        insert.setTimestamp(6, Timestamp.from(T0.plusSeconds(second)));
        insert.setString(7, error);
        insert.executeUpdate();
    }
}
