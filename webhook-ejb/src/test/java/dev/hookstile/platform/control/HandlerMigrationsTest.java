package dev.hookstile.platform.control;

import dev.hookstile.platform.boundary.SchemaMigration;
import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.postgresql.ds.PGSimpleDataSource;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A handler jar's migrations on both databases Hookstile runs on, applied after Hookstile's own as
 * {@code SchemaMigration} applies them: the handler's tables exist, their history is apart from Hookstile's, a later
 * jar adds only its new migrations, and a broken one fails with one line naming it. Each test has a schema (or an
 * in-memory database) of its own and a class path holding only its own migrations.
 */
class HandlerMigrationsTest {

    @TempDir
    Path jar;

    private static DataSource database(String kind) throws SQLException {
        if (kind.equals("h2")) {
            var h2 = new JdbcDataSource();
            h2.setURL("jdbc:h2:mem:handlers-" + UUID.randomUUID()
                    + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;DB_CLOSE_DELAY=-1");
            return h2;
        }
        String url = System.getenv().getOrDefault("HOOKSTILE_TEST_DB_URL", "jdbc:postgresql://127.0.0.1:5432/test");
        String user = System.getenv().getOrDefault("HOOKSTILE_TEST_DB_USER", "postgres");
        String password = System.getenv().getOrDefault("HOOKSTILE_TEST_DB_PASSWORD", "");
        String schema = "hookstile_handlers_" + UUID.randomUUID().toString().replace("-", "");
        // The driver's own data source, not DriverManager: SchemaMigration deregisters the drivers it loaded (a test
        // of it in the same JVM), and a missing driver must not pass for a missing database.
        var postgres = new PGSimpleDataSource();
        postgres.setURL(url);
        postgres.setUser(user);
        postgres.setPassword(password);
        try (Connection connection = postgres.getConnection();
             Statement statement = connection.createStatement()) {
            statement.execute("CREATE SCHEMA " + schema);
        } catch (SQLException e) {
            boolean unreachable = e.getSQLState() != null && e.getSQLState().startsWith("08");
            assumeTrue(!unreachable, "no PostgreSQL at " + url + ": " + e.getMessage());
            throw e;
        }
        postgres.setCurrentSchema(schema);
        return postgres;
    }

    /** Hookstile's own schema, as SchemaMigration leaves it before the handlers' turn. */
    private static DataSource withHookstileSchema(String kind) throws SQLException {
        DataSource database = database(kind);
        Flyway.configure().dataSource(database).locations("classpath:db/migration").table("hookstile_schema_history")
                .placeholders(SchemaMigration.placeholders(kind.equals("postgres"))).load().migrate();
        return database;
    }

    private void ship(String file, String sql) throws IOException {
        Path dir = jar.resolve(HandlerMigrations.LOCATION);
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(file), sql);
    }

    private HandlerMigrations migrations() throws IOException {
        return new HandlerMigrations(new URLClassLoader(new URL[] {jar.toUri().toURL()},
                HandlerMigrationsTest.class.getClassLoader()));
    }

    private static List<String> rows(DataSource database, String query) throws SQLException {
        try (Connection connection = database.getConnection();
             Statement statement = connection.createStatement();
             ResultSet result = statement.executeQuery(query)) {
            var rows = new ArrayList<String>();
            while (result.next()) {
                rows.add(result.getString(1));
            }
            return rows;
        }
    }

    private static boolean tableExists(DataSource database, String table) throws SQLException {
        try (Connection connection = database.getConnection();
             ResultSet tables = connection.getMetaData().getTables(null, connection.getSchema(), table, null)) {
            return tables.next();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgres"})
    void aHandlersTablesAreCreatedAfterHookstilesWithAHistoryOfTheirOwn(String kind) throws Exception {
        DataSource database = withHookstileSchema(kind);
        List<String> hookstileHistory = rows(database,
                "SELECT version FROM hookstile_schema_history ORDER BY installed_rank");
        ship("V1__issue_event.sql", """
                CREATE TABLE issue_event (
                    event_id VARCHAR(255) NOT NULL PRIMARY KEY,
                    action   VARCHAR(64)  NOT NULL
                );""");

        var result = migrations().migrate(database).orElseThrow();

        assertEquals(1, result.migrationsExecuted);
        assertEquals("1", result.targetSchemaVersion);
        try (Connection connection = database.getConnection();
             Statement statement = connection.createStatement()) {
            assertEquals(1, statement.executeUpdate(
                    "INSERT INTO issue_event (event_id, action) VALUES ('evt-1', 'opened')"));
        }
        assertEquals(List.of("V1__issue_event.sql"), rows(database,
                "SELECT script FROM handler_schema_history WHERE success AND version IS NOT NULL AND version <> '0'"
                        + " ORDER BY installed_rank"));
        assertEquals(hookstileHistory, rows(database,
                "SELECT version FROM hookstile_schema_history ORDER BY installed_rank"), "Hookstile's history untouched");
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgres"})
    void aLaterJarAppliesOnlyItsNewMigrations(String kind) throws Exception {
        DataSource database = withHookstileSchema(kind);
        ship("V1__issue_event.sql", "CREATE TABLE issue_event (event_id VARCHAR(255) NOT NULL PRIMARY KEY)");
        migrations().migrate(database);
        try (Connection connection = database.getConnection();
             Statement statement = connection.createStatement()) {
            statement.executeUpdate("INSERT INTO issue_event (event_id) VALUES ('evt-1')");
        }

        ship("V2__issue_event_action.sql", "ALTER TABLE issue_event ADD COLUMN action VARCHAR(64)");
        var second = migrations().migrate(database).orElseThrow();

        assertEquals(1, second.migrationsExecuted);
        assertEquals("2", second.targetSchemaVersion);
        assertEquals(List.of("evt-1"), rows(database, "SELECT event_id FROM issue_event WHERE action IS NULL"));
        assertEquals(0, migrations().migrate(database).orElseThrow().migrationsExecuted, "nothing pending");
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgres"})
    void withoutHandlerMigrationsNothingIsCreated(String kind) throws Exception {
        DataSource database = withHookstileSchema(kind);

        assertFalse(migrations().shipped());
        assertTrue(migrations().migrate(database).isEmpty());
        assertFalse(tableExists(database, HandlerMigrations.HISTORY_TABLE));
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgres"})
    void aBrokenMigrationFailsWithOneLineNamingItAndTheDatabasesReason(String kind) throws Exception {
        DataSource database = withHookstileSchema(kind);
        ship("V1__issue_event.sql", "CREATE TABLE issue_event (event_id VARCHAR(255) NOT NULL PRIMARY KEY)");
        ship("V2__typo.sql", "ALTER TABLE issue_evnt ADD COLUMN action VARCHAR(64)");

        var failure = assertThrows(HandlerMigrations.Failure.class, () -> migrations().migrate(database));

        String message = failure.getMessage();
        assertFalse(message.contains("\n"), message);
        assertTrue(message.startsWith("Handler schema migration failed (db/handler-migration, history "
                + "handler_schema_history): "), message);
        assertTrue(message.contains("V2__typo.sql"), message);
        assertTrue(message.toLowerCase().contains("issue_evnt"), "the database's reason: " + message);
        assertFalse(message.contains("-X"), "no advice for a command line the user does not have: " + message);
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgres"})
    void aHandlerTakenOutOfTheDeploymentStopsNothing(String kind) throws Exception {
        DataSource database = withHookstileSchema(kind);
        ship("V1__issue_event.sql", "CREATE TABLE issue_event (event_id VARCHAR(255) NOT NULL PRIMARY KEY)");
        migrations().migrate(database);
        Files.delete(jar.resolve(HandlerMigrations.LOCATION).resolve("V1__issue_event.sql"));
        ship("V2__paid_invoice.sql", "CREATE TABLE paid_invoice (event_id VARCHAR(255) NOT NULL)");

        var result = migrations().migrate(database).orElseThrow();

        assertEquals(1, result.migrationsExecuted);
        assertTrue(tableExists(database, "issue_event"), "its tables stay");
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgres"})
    void aJarAddedLaterWithLowerVersionsIsAppliedAllTheSame(String kind) throws Exception {
        DataSource database = withHookstileSchema(kind);
        ship("V200__ledger.sql", "CREATE TABLE ledger (entry VARCHAR(255) NOT NULL)");
        migrations().migrate(database);

        ship("V100__issue_event.sql", "CREATE TABLE issue_event (event_id VARCHAR(255) NOT NULL PRIMARY KEY)");
        var later = migrations().migrate(database).orElseThrow();

        assertEquals(1, later.migrationsExecuted);
        assertTrue(tableExists(database, "issue_event"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgres"})
    void anAppliedMigrationEditedAfterwardsFailsTheValidation(String kind) throws Exception {
        DataSource database = withHookstileSchema(kind);
        ship("V1__issue_event.sql", "CREATE TABLE issue_event (event_id VARCHAR(255) NOT NULL PRIMARY KEY)");
        migrations().migrate(database);
        ship("V1__issue_event.sql", "CREATE TABLE issue_event (event_id VARCHAR(100) NOT NULL PRIMARY KEY)");

        var failure = assertThrows(HandlerMigrations.Failure.class, () -> migrations().migrate(database));

        assertTrue(failure.getMessage().contains("checksum mismatch"), failure.getMessage());
    }
}
