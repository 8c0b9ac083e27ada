package dev.hookstile.platform.boundary;

import dev.hookstile.platform.control.HandlerMigrations;
import jakarta.enterprise.event.Event;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.Proxy;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What start-up does with the handlers' migrations, on the embedded database: applied after Hookstile's before the
 * schema counts as migrated; a broken one at deployment fails it; found broken on a later retry (the database was down
 * at deployment), it cannot undeploy anything, so Hookstile's own work goes on.
 */
class SchemaMigrationTest {

    @TempDir
    Path handlerJar;

    private final List<SchemaMigration.Ready> fired = new ArrayList<>();
    private SchemaMigration migration;
    private JdbcDataSource database;

    @BeforeEach
    void migrationOnAFreshDatabase() throws Exception {
        database = new JdbcDataSource();
        database.setURL("jdbc:h2:mem:startup-" + UUID.randomUUID()
                + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;DB_CLOSE_DELAY=-1");
        migration = new SchemaMigration();
        migration.dataSource = database;
        migration.handlerJars = new URLClassLoader(new URL[] {handlerJar.toUri().toURL()},
                SchemaMigrationTest.class.getClassLoader());
        @SuppressWarnings("unchecked")
        Event<SchemaMigration.Ready> ready = (Event<SchemaMigration.Ready>) Proxy.newProxyInstance(
                Event.class.getClassLoader(), new Class<?>[] {Event.class}, (proxy, method, args) -> {
                    if (method.getName().equals("fire")) {
                        fired.add((SchemaMigration.Ready) args[0]);
                        return null;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
        migration.ready = ready;
    }

    /**
     * SchemaMigration takes the drivers this class loader registered out of DriverManager, as an undeploy needs; here
     * that is the test JVM's, which later tests still connect through.
     */
    @AfterEach
    void driversBack() throws SQLException {
        if (!registered("jdbc:postgresql://127.0.0.1/test")) {
            DriverManager.registerDriver(new org.postgresql.Driver());
        }
        if (!registered("jdbc:h2:mem:")) {
            DriverManager.registerDriver(new org.h2.Driver());
        }
    }

    private static boolean registered(String url) {
        try {
            DriverManager.getDriver(url);
            return true;
        } catch (SQLException none) {
            return false;
        }
    }

    private void ship(String file, String sql) throws Exception {
        Path dir = Files.createDirectories(handlerJar.resolve(HandlerMigrations.LOCATION));
        Files.writeString(dir.resolve(file), sql);
    }

    private boolean tableExists(String table) throws Exception {
        try (Connection connection = database.getConnection();
             ResultSet tables = connection.getMetaData().getTables(null, null, table, null)) {
            return tables.next();
        }
    }

    @Test
    void theHandlersTablesExistOnceTheSchemaCountsAsMigrated() throws Exception {
        ship("V1__issue_event.sql", "CREATE TABLE issue_event (event_id VARCHAR(255) NOT NULL PRIMARY KEY)");

        migration.deploy();

        assertTrue(migration.migrated());
        assertEquals(1, fired.size());
        assertTrue(tableExists("hookstile_schema_history"));
        assertTrue(tableExists("issue_event"));
        assertTrue(tableExists("handler_schema_history"));
    }

    @Test
    void aBrokenHandlerMigrationFailsTheDeployment() throws Exception {
        ship("V1__typo.sql", "ALTER TABLE issue_evnt ADD COLUMN action VARCHAR(64)");

        var failure = assertThrows(HandlerMigrations.Failure.class, migration::deploy);

        assertTrue(failure.getMessage().contains("V1__typo.sql"), failure.getMessage());
        assertFalse(migration.migrated());
        assertEquals(List.of(), fired);
        assertTrue(tableExists("hookstile_schema_history"), "Hookstile's own schema was migrated first");
    }

    @Test
    void aBrokenHandlerMigrationFoundOnARetryLeavesHookstileRunning() throws Exception {
        ship("V1__typo.sql", "ALTER TABLE issue_evnt ADD COLUMN action VARCHAR(64)");

        migration.retry();

        assertTrue(migration.migrated(), "Hookstile's own work goes on");
        assertEquals(1, fired.size());
    }
}
