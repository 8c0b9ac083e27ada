package dev.hookstile.processing.control;

import dev.hookstile.api.WebhookEvent;
import dev.hookstile.platform.boundary.SchemaMigration;
import dev.hookstile.test.WebhookEvents;
import jakarta.persistence.EntityManager;
import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The last processed event of each order key, with KeyOrder's own statements on the embedded database (H2 in
 * PostgreSQL mode, after every migration). Its entity manager is a stand-in that hands out the test's connection.
 */
class KeyOrderOnH2Test {

    private static final Instant T0 = Instant.parse("2026-11-26T10:00:00Z");

    private Connection connection;
    private final KeyOrder keyOrder = new KeyOrder();

    @BeforeEach
    void migrate() throws SQLException {
        var h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:order-" + UUID.randomUUID()
                + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;DB_CLOSE_DELAY=-1");
        Flyway.configure().dataSource(h2).locations("classpath:db/migration").table("hookstile_schema_history")
                .placeholders(SchemaMigration.placeholders(false)).load().migrate();
        connection = h2.getConnection();
        keyOrder.em = on(connection);
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
    }

    private static WebhookEvent event(String source, String id, String key, Instant receivedAt) {
        WebhookEvents event = WebhookEvents.standardWebhooks("order.updated").source(source).eventId(id)
                .receivedAt(receivedAt).payload("{}");
        return (key == null ? event : event.orderKey(key, false)).build();
    }

    private String last(String source, String key) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT last_event_id FROM event_order WHERE source = ? AND order_key = ?")) {
            select.setString(1, source);
            select.setString(2, key);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? row.getString(1) : null;
            }
        }
    }

    @Test
    void anEventWithoutAKeyIsLeftAsItIs() throws SQLException {
        WebhookEvent unordered = event("ord", "e1", null, T0);

        assertSame(unordered, keyOrder.processing(unordered, T0));
        try (var count = connection.createStatement().executeQuery("SELECT count(*) FROM event_order")) {
            count.next();
            assertEquals(0, count.getInt(1));
        }
    }

    @Test
    void eachNewerEventOfAKeyBecomesItsLast() throws SQLException {
        assertFalse(keyOrder.processing(event("ord", "e1", "cus_1", T0), T0).olderThanLastProcessed());
        assertEquals("e1", last("ord", "cus_1"));

        assertFalse(keyOrder.processing(event("ord", "e2", "cus_1", T0.plusSeconds(1)), T0).olderThanLastProcessed());
        assertEquals("e2", last("ord", "cus_1"));
    }

    @Test
    void anEventAcknowledgedBeforeTheLastIsToldItIsOlderAndChangesNothing() throws SQLException {
        keyOrder.processing(event("ord", "e2", "cus_1", T0.plusSeconds(5)), T0);

        // A replay of an event acknowledged before e2.
        WebhookEvent replayed = keyOrder.processing(event("ord", "e1", "cus_1", T0), T0.plusSeconds(60));

        assertTrue(replayed.olderThanLastProcessed());
        assertEquals("e2", last("ord", "cus_1"));
    }

    @Test
    void keysAreCountedPerSource() throws SQLException {
        keyOrder.processing(event("ord", "e2", "cus_1", T0.plusSeconds(5)), T0);

        assertFalse(keyOrder.processing(event("other", "x1", "cus_1", T0), T0).olderThanLastProcessed());
        assertEquals("x1", last("other", "cus_1"));
        assertEquals("e2", last("ord", "cus_1"));
    }

    /** An EntityManager whose connection is this one: all KeyOrder asks of one. */
    private static EntityManager on(Connection connection) {
        return (EntityManager) Proxy.newProxyInstance(KeyOrderOnH2Test.class.getClassLoader(),
                new Class<?>[] {EntityManager.class}, (proxy, method, args) -> {
                    if (!method.getName().equals("unwrap") || args[0] != Connection.class) {
                        throw new UnsupportedOperationException(method.toString());
                    }
                    return connection;
                });
    }
}
