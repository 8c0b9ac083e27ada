package dev.hookstile.processing.control;

import dev.hookstile.api.WebhookEvent;
import dev.hookstile.platform.boundary.SchemaMigration;
import dev.hookstile.test.WebhookEvents;
import jakarta.persistence.EntityManager;
import jakarta.persistence.Query;
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
import java.util.ArrayList;
import java.util.TreeMap;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The last processed event of each order key, with KeyOrder's own statements on the embedded database (H2 in
 * PostgreSQL mode, after every migration). Its entity manager is a stand-in that runs the native queries through
 * JDBC, which is all KeyOrder asks of one.
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
        keyOrder.em = nativeQueriesOn(connection);
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

    /** An EntityManager that knows createNativeQuery, setParameter(int, ...), executeUpdate and getResultList. */
    private static EntityManager nativeQueriesOn(Connection connection) {
        return (EntityManager) Proxy.newProxyInstance(KeyOrderOnH2Test.class.getClassLoader(),
                new Class<?>[] {EntityManager.class}, (proxy, method, args) -> {
                    if (!method.getName().equals("createNativeQuery") || args.length != 1) {
                        throw new UnsupportedOperationException(method.toString());
                    }
                    return nativeQuery(connection, (String) args[0]);
                });
    }

    private static Query nativeQuery(Connection connection, String sql) {
        var parameters = new TreeMap<Integer, Object>();
        return (Query) Proxy.newProxyInstance(KeyOrderOnH2Test.class.getClassLoader(), new Class<?>[] {Query.class},
                (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "setParameter" -> {
                            parameters.put((Integer) args[0], args[1]);
                            return proxy;
                        }
                        case "executeUpdate" -> {
                            try (PreparedStatement statement = prepare(connection, sql, parameters)) {
                                return statement.executeUpdate();
                            }
                        }
                        case "getResultList" -> {
                            try (PreparedStatement statement = prepare(connection, sql, parameters);
                                 ResultSet rows = statement.executeQuery()) {
                                var result = new ArrayList<Object>();
                                while (rows.next()) {
                                    result.add(rows.getObject(1));
                                }
                                return result;
                            }
                        }
                        default -> throw new UnsupportedOperationException(method.toString());
                    }
                });
    }

    /** JPA's numbered parameters (?1, ?2, ...) as JDBC's, in the order they appear. */
    private static PreparedStatement prepare(Connection connection, String sql, TreeMap<Integer, Object> parameters)
            throws SQLException {
        var order = new ArrayList<Integer>();
        var matcher = java.util.regex.Pattern.compile("\\?(\\d+)").matcher(sql);
        while (matcher.find()) {
            order.add(Integer.parseInt(matcher.group(1)));
        }
        PreparedStatement statement = connection.prepareStatement(sql.replaceAll("\\?\\d+", "?"));
        for (int i = 0; i < order.size(); i++) {
            statement.setObject(i + 1, parameters.get(order.get(i)));
        }
        return statement;
    }
}
