package dev.hookstile.events.boundary;

import dev.hookstile.platform.boundary.SchemaMigration;
import dev.hookstile.source.JsonMatch;
import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The body search on the embedded database (H2 in PostgreSQL mode) after every migration: a bounded slice of the
 * newest events, their bodies matched here, a shared body read from {@code event_body}, and a cursor to older ones.
 */
class ContentSearchOnH2Test {

    private static final Instant T0 = Instant.parse("2026-11-27T12:00:00Z");
    private final ContentSearch search = new ContentSearch();
    private JdbcDataSource h2;

    @BeforeEach
    void migrateAndRecord() throws SQLException {
        h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:body-search-" + UUID.randomUUID()
                + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;DB_CLOSE_DELAY=-1");
        Flyway.configure().dataSource(h2).locations("classpath:db/migration").table("hookstile_schema_history")
                .placeholders(SchemaMigration.placeholders(false)).load().migrate();
        search.dataSource = h2;
        search.scanEvents = 4;
        try (Connection connection = h2.getConnection()) {
            try (PreparedStatement body = connection.prepareStatement(
                    "INSERT INTO event_body (digest, body, created_at) VALUES ('d1', ?, ?)")) {
                body.setBytes(1, "{\"entry\":[{\"id\":\"wa-1\"}],\"status\":\"failed\"}".getBytes(StandardCharsets.UTF_8));
                body.setTimestamp(2, Timestamp.from(T0));
                body.executeUpdate();
            }
            try (PreparedStatement insert = connection.prepareStatement("""
                    INSERT INTO received_event (source, event_id, provider, type, status, attempts, received_at,
                                                updated_at, headers, payload, body_digest)
                    VALUES (?, ?, 'stripe', 'charge', 'completed', 1, ?, ?, ?, ?, ?)""")) {
                record(insert, "1", 1, "{\"status\":\"failed\"}", null);
                record(insert, "2", 2, "{\"status\":\"paid\"}", null);
                record(insert, "3", 3, "not json at all", null);
                record(insert, "4", 4, null, "d1");
                record(insert, "5", 5, "{\"status\":\"failed\",\"note\":\"\\u0000\"}", null);
                record(insert, "6", 6, "{\"status\":\"paid\"}", null);
            }
        }
    }

    @Test
    void aPageLooksAtTheNewestEventsOnlyAndItsCursorSearchesOlderOnes() {
        JsonMatch failed = JsonMatch.parse("{\"status\":\"failed\"}");

        ContentSearch.Page first = search.page(query(null), failed, null);

        assertEquals(List.of("5", "4"), ids(first), "among the newest 4 (6, 5, 4, 3): a shared body too");
        assertTrue(first.scan().reached());
        assertEquals(T0.plusSeconds(3), first.scan().oldest().toInstant(), "back to the fourth newest");
        ContentSearch.Page second = search.page(query(first.next()), failed, null);
        assertEquals(List.of("1"), ids(second));
        assertFalse(second.scan().reached(), "fewer than 4 left: every one looked at");
        assertNull(second.next());
    }

    @Test
    void aFullPageEndsAtItsLastEvent() {
        ContentSearch.Page page = search.page(new EventQuery("pay", null, null, null, null, null, 1, false, null, null,
                null), JsonMatch.parse("{\"status\":\"failed\"}"), null);

        assertEquals(List.of("5"), ids(page));
        assertEquals("5", page.next().eventId());
    }

    @Test
    void aHeaderIsMatchedByItsValueExactlyAndItsNameInAnyCase() {
        var header = new ContentSearch.Header("X-Seq", "2");

        assertEquals(List.of(), ids(search.page(query(null), null, header)), "among the newest 4 only: 2 is older");
        search.scanEvents = 100;
        assertEquals(List.of("2"), ids(search.page(query(null), null, header)));
        assertEquals(List.of("6", "5", "4", "3", "2", "1"), ids(search.page(query(null), null,
                new ContentSearch.Header("stripe-version", "2024-06-20"))));
        assertEquals(List.of(), ids(search.page(query(null), null, new ContentSearch.Header("x-seq", "2 "))));
        assertEquals(List.of("5"), ids(search.page(query(null), JsonMatch.parse("{\"status\":\"failed\"}"),
                new ContentSearch.Header("x-seq", "5"))), "both");
    }

    @Test
    void ofAReplaysPageOnlyTheEventsWhoseBodyAndHeadersMatchAreKeptInTheirOrder() {
        List<EventSummary> page = search.page(query(null), null, new ContentSearch.Header("stripe-version",
                "2024-06-20")).events();
        assertEquals(4, page.size(), "the newest 4, whatever they hold");
        JsonMatch failed = JsonMatch.parse("{\"status\":\"failed\"}");

        assertEquals(List.of("5", "4"), search.matching(page, failed, null).stream().map(EventSummary::eventId)
                .toList(), "a shared body too; not json at all is no match");
        assertEquals(List.of("4"), search.matching(page, failed, new ContentSearch.Header("X-SEQ", "4")).stream()
                .map(EventSummary::eventId).toList(), "both");
        assertEquals(page, search.matching(page, null, null), "no condition: the page as it is");
    }

    private static EventQuery query(EventQuery.Position after) {
        return new EventQuery("pay", null, null, null, null, after, 50, false, null, null, null);
    }

    private static List<String> ids(ContentSearch.Page page) {
        return page.events().stream().map(EventSummary::eventId).toList();
    }

    private static void record(PreparedStatement insert, String id, int second, String payload, String digest)
            throws SQLException {
        insert.setString(1, "pay");
        insert.setString(2, id);
        insert.setTimestamp(3, Timestamp.from(T0.plusSeconds(second)));
        insert.setTimestamp(4, Timestamp.from(T0.plusSeconds(second)));
        insert.setString(5, "{\"Stripe-Version\":\"2024-06-20\",\"x-seq\":\"" + id + "\"}");
        insert.setBytes(6, payload == null ? null : payload.getBytes(StandardCharsets.UTF_8));
        insert.setString(7, digest);
        insert.executeUpdate();
    }
}
