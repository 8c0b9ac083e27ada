package dev.hookstile.events.boundary;

import dev.hookstile.MapConfig;
import dev.hookstile.platform.boundary.DatabaseTurns;
import dev.hookstile.platform.boundary.SchemaMigration;
import dev.hookstile.search.boundary.SearchKeys;
import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The search keys' back-fill on the embedded database: page by page, oldest first, resumable from its position, each
 * key written once however many instances read the page, and only the events received before it started.
 */
class KeyBackfillOnH2Test {

    private static final Instant T0 = Instant.parse("2026-11-27T12:00:00Z");
    private final KeyBackfill backfill = new KeyBackfill();
    private JdbcDataSource h2;

    @BeforeEach
    void migrateAndRecord() throws SQLException {
        h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:backfill-" + UUID.randomUUID()
                + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;DB_CLOSE_DELAY=-1");
        Flyway.configure().dataSource(h2).locations("classpath:db/migration").table("hookstile_schema_history")
                .placeholders(SchemaMigration.placeholders(false)).load().migrate();
        backfill.database = new DatabaseTurns(h2);
        backfill.keys = new SearchKeys(new MapConfig(Map.of("hookstile.sources", "pay,gh",
                "hookstile.sources.pay.search-keys", "/customer")));
        backfill.pageSize = 2;
        try (Connection connection = h2.getConnection();
             PreparedStatement insert = connection.prepareStatement("""
                     INSERT INTO received_event (source, event_id, provider, type, status, attempts, received_at,
                                                 updated_at, headers, payload)
                     VALUES (?, ?, 'stripe', 'charge', 'completed', 1, ?, ?, '{}', ?)""")) {
            for (int i = 1; i <= 5; i++) {
                insert.setString(1, "pay");
                insert.setString(2, "e" + i);
                insert.setTimestamp(3, Timestamp.from(T0.plusSeconds(i)));
                insert.setTimestamp(4, Timestamp.from(T0.plusSeconds(i)));
                insert.setBytes(5, (i == 3 ? "not json" : "{\"customer\":\"cus_" + i + "\"}")
                        .getBytes(StandardCharsets.UTF_8));
                insert.executeUpdate();
            }
        }
    }

    @Test
    void everyEventBeforeTheStartGetsItsKeysPageByPageAndAnotherInstancesPageWritesNothingTwice()
            throws SQLException {
        KeyBackfill.Progress started = backfill.start("pay", T0.plusSeconds(5));
        assertEquals("running", started.status());

        try (Connection connection = h2.getConnection()) {
            backfill.page(connection, started, T0);
            // A second instance read the same page before the first moved on: nothing twice, no position moved.
            backfill.page(connection, started, T0);
            for (int i = 0; i < 3; i++) {
                backfill.page(connection, backfill.all().get(0), T0);
            }
        }

        KeyBackfill.Progress done = backfill.all().get(0);
        assertEquals("completed", done.status());
        assertEquals(4, done.scanned(), "e1 to e4: e5 came at the start");
        assertEquals(3, done.written(), "e3's body is not JSON");
        assertEquals(List.of("e1=cus_1", "e2=cus_2", "e4=cus_4"), keys());
    }

    @Test
    void aSourceWithoutKeysCannotBeBackFilled() {
        assertThrows(IllegalArgumentException.class, () -> backfill.start("gh", T0));
    }

    private List<String> keys() throws SQLException {
        var keys = new ArrayList<String>();
        try (Connection connection = h2.getConnection();
             PreparedStatement select = connection.prepareStatement(
                     "SELECT event_id, key_value FROM event_key ORDER BY event_id");
             ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                keys.add(rows.getString(1) + "=" + rows.getString(2));
            }
        }
        return keys;
    }
}
