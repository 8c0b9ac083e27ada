package dev.hookstile.outbox.control;

import dev.hookstile.platform.boundary.SchemaMigration;
import jakarta.persistence.EntityManager;
import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The outbox's state changes with their own statements on the embedded database (H2 in PostgreSQL mode, after every
 * migration): taken for a lease, delivered, retried at a time, dead, replayed. The entries are notifications, the
 * kind that needs no event behind it.
 */
class OutboxEntriesOnH2Test {

    private static final Instant T0 = Instant.parse("2026-11-26T10:00:00Z");
    private static final Duration LEASE = Duration.ofSeconds(60);
    private static final String URL = "https://ops.example.test/hooks";

    private Connection connection;
    private final OutboxEntries entries = new OutboxEntries();

    @BeforeEach
    void migrate() throws SQLException {
        var h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:outbox-" + UUID.randomUUID()
                + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;DB_CLOSE_DELAY=-1");
        Flyway.configure().dataSource(h2).locations("classpath:db/migration").table("hookstile_schema_history")
                .placeholders(SchemaMigration.placeholders(false)).load().migrate();
        connection = h2.getConnection();
        entries.em = (EntityManager) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {EntityManager.class}, (proxy, method, args) -> {
                    if (method.getName().equals("unwrap") && args[0] == Connection.class) {
                        return connection;
                    }
                    throw new UnsupportedOperationException(method.toString());
                });
        entries.onEmbeddedDatabase(true);
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
    }

    private long schedule(String id, Instant due) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(OutboxStatements.SCHEDULE_NOTIFICATION)) {
            insert.setString(1, id);
            insert.setString(2, URL);
            insert.setTimestamp(3, Timestamp.from(due));
            // Created when first due: a resume sends held rows in order of creation.
            insert.setTimestamp(4, Timestamp.from(due));
            insert.setBytes(5, ("{\"id\":\"" + id + "\"}").getBytes(StandardCharsets.UTF_8));
            insert.executeUpdate();
        }
        try (PreparedStatement select = connection.prepareStatement("SELECT id FROM outbox WHERE event_id = ?")) {
            select.setString(1, id);
            try (ResultSet row = select.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }

    private String state(long id) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT status, attempts, last_error FROM outbox WHERE id = ?")) {
            select.setLong(1, id);
            try (ResultSet row = select.executeQuery()) {
                row.next();
                return row.getString(1) + " " + row.getInt(2) + " " + row.getString(3);
            }
        }
    }

    private List<Long> take(Instant now) {
        return entries.take(now, LEASE, 50, URL).stream().map(OutboxEntries.Due::id).toList();
    }

    @Test
    void aDueEntryIsTakenForALeaseAndAgainOnlyWhenTheLeaseEnds() throws SQLException {
        long id = schedule("n-1", T0);

        assertEquals(List.of(id), take(T0));
        assertEquals(List.of(), take(T0.plusSeconds(30)), "leased: no instance takes it again meanwhile");
        assertEquals(List.of(id), take(T0.plus(LEASE)), "the sender died mid-send: taken again");
        assertEquals("pending 0 null", state(id));
    }

    @Test
    void anEntryNotDueYetIsLeftAlone() throws SQLException {
        schedule("n-1", T0.plusSeconds(10));

        assertEquals(List.of(), take(T0));
    }

    @Test
    void aNotificationIsTakenOnlyByAnInstanceThatSendsToItsUrl() throws SQLException {
        schedule("n-1", T0);

        assertEquals(List.of(), entries.take(T0, LEASE, 50, null));
        assertEquals(List.of(), entries.take(T0, LEASE, 50, "https://other.example.test/"));
    }

    @Test
    void aDeliveredEntryIsNeverTakenAgain() throws SQLException {
        long id = schedule("n-1", T0);
        take(T0);

        entries.delivered(List.of(id), T0.plusSeconds(1));

        assertEquals("delivered 1 null", state(id));
        assertEquals(List.of(), take(T0.plus(Duration.ofDays(1))));
    }

    @Test
    void aTransientFailureIsTakenAgainAtItsTimeWithItsErrorOnOneLine() throws SQLException {
        long id = schedule("n-1", T0);
        take(T0);

        entries.retryAt(id, T0.plusSeconds(2), "503 Service Unavailable\r\nfrom the proxy");

        assertEquals("pending 1 503 Service Unavailable from the proxy", state(id));
        assertEquals(List.of(), take(T0.plusSeconds(1)));
        assertEquals(List.of(id), take(T0.plusSeconds(2)));
    }

    @Test
    void aDeadEntryStaysUntilAnOperatorReplaysIt() throws SQLException {
        long id = schedule("n-1", T0);
        long pending = schedule("n-2", T0.plusSeconds(3_600));
        take(T0);

        entries.dead(id, "410 Gone");

        assertEquals("dead 1 410 Gone", state(id));
        assertEquals(List.of(), take(T0.plus(Duration.ofDays(1))).stream().filter(t -> t == id).toList());
        assertTrue(entries.replay(id, T0.plusSeconds(5)));
        assertEquals(List.of(id), take(T0.plusSeconds(5)));
        assertFalse(entries.replay(pending, T0), "a pending entry is not replayed: it is due already");
    }

    @Test
    void aForwardingTheFilterKeptBackIsNeverDueNorReplayedAndSaysWhy() throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(OutboxStatements.FILTER)) {
            insert.setString(1, "pay");
            insert.setString(2, "evt-1");
            insert.setString(3, "https://backoffice.example.com/hooks");
            insert.setTimestamp(4, Timestamp.from(T0));
            insert.setTimestamp(5, Timestamp.from(T0));
            insert.setString(6, "not forwarded: the body does not contain {}");
            assertEquals(1, insert.executeUpdate());
            assertEquals(0, insert.executeUpdate(), "a second try of the event records nothing more");
        }
        long id;
        try (PreparedStatement select = connection.prepareStatement("SELECT id FROM outbox WHERE event_id = 'evt-1'");
             ResultSet row = select.executeQuery()) {
            row.next();
            id = row.getLong(1);
        }

        assertEquals("filtered 0 not forwarded: the body does not contain {}", state(id));
        assertFalse(take(T0.plus(Duration.ofDays(1))).contains(id));
        assertFalse(entries.replay(id, T0), "a replay would send what the filter keeps back");
    }

    @Test
    void aPausedDestinationsForwardingsAreHeldWithoutAnAttemptAndSentOldestFirstOnceResumed() throws SQLException {
        long first = schedule("n-1", T0);
        long second = schedule("n-2", T0.plusSeconds(1));

        assertTrue(entries.pause(OutboxStatements.NOTIFICATIONS, URL, T0));
        assertFalse(entries.pause(OutboxStatements.NOTIFICATIONS, URL, T0.plusSeconds(1)), "paused already");
        assertEquals(T0, entries.paused().get(List.of(OutboxStatements.NOTIFICATIONS, URL)), "since the first pause");
        assertEquals(List.of(), take(T0.plusSeconds(5)));
        assertEquals(List.of(), take(T0.plus(Duration.ofDays(2))), "held, however long");
        assertEquals("pending 0 null", state(first), "not an attempt: a pause never makes a forwarding dead");

        assertTrue(entries.resume(OutboxStatements.NOTIFICATIONS, URL));
        assertFalse(entries.resume(OutboxStatements.NOTIFICATIONS, URL), "not paused any more");
        assertEquals(List.of(first, second), take(T0.plusSeconds(10)), "due at once, in order of creation");
    }

    @Test
    void aForwardingSetAsideJustAsItsDestinationWasResumedIsReleasedAtTheNextTurn() throws SQLException {
        long id = schedule("n-1", T0);
        entries.pause(OutboxStatements.NOTIFICATIONS, URL, T0);
        take(T0.plusSeconds(1));
        // Another instance resumed between this one's reading of the pauses and its setting the row aside: the pause
        // is gone, the row still held.
        try (PreparedStatement resume = connection.prepareStatement(OutboxStatements.RESUME)) {
            resume.setString(1, OutboxStatements.NOTIFICATIONS);
            resume.setString(2, URL);
            resume.executeUpdate();
        }

        assertEquals(List.of(id), take(T0.plusSeconds(2)));
    }

    @Test
    void aPacedDestinationGetsWhatItsBucketGrantsAndTheRestIsDueLaterInOrderWithoutAnAttempt() throws SQLException {
        var ids = new java.util.ArrayList<Long>();
        for (int i = 0; i < 5; i++) {
            ids.add(schedule("n-" + i, T0.plusMillis(i)));
        }
        var paces = Map.of(List.of(OutboxStatements.NOTIFICATIONS, URL), 2.0);

        OutboxEntries.Taken taken = entries.take(T0.plusSeconds(1), LEASE, 5, URL, paces);
        List<Long> now = taken.due().stream().map(OutboxEntries.Due::id).toList();

        assertEquals(ids.subList(0, 2), now, "2 a second: the bucket's burst");
        assertTrue(taken.full(), "5 found: the relay takes again at once, past the deferred ones");
        assertEquals("pending 0 null", state(ids.get(2)), "deferred, no attempt");
        assertEquals(List.of(), entries.take(T0.plusMillis(1_400), LEASE, 50, URL, paces).due(),
                "none due before its token");
        assertEquals(List.of(ids.get(2)), entries.take(T0.plusMillis(1_500), LEASE, 50, URL, paces).due().stream()
                .map(OutboxEntries.Due::id).toList(), "the next one, half a second later at 2 a second");
    }
}
