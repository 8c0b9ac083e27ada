package dev.hookstile.platform.boundary;

import com.fasterxml.jackson.databind.type.TypeFactory;
import dev.hookstile.platform.control.ConfiguredDataSource;
import dev.hookstile.platform.control.HandlerMigrations;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.Timeout;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import org.flywaydb.core.Flyway;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Creates and migrates the schema with Flyway at start-up (scripts in {@code db/migration}, the same for PostgreSQL
 * and the embedded H2), then the handlers' own tables ({@link HandlerMigrations}: {@code db/handler-migration} in
 * their jars, a history of their own). A database that is down at start-up does not stop the application, since
 * ingest works without it: migration is retried every 10 seconds until it succeeds. A handler migration that fails
 * on a reachable database will not succeed by waiting: it fails the deployment.
 */
@Singleton
@Startup
@TransactionManagement(TransactionManagementType.BEAN)
public class SchemaMigration {

    private static final long RETRY_MILLIS = 10_000;
    private static final Logger LOG = Logger.getLogger(SchemaMigration.class.getName());

    @Resource(lookup = ContainerResources.DATA_SOURCE)
    DataSource dataSource;

    @Resource
    TimerService timers;

    @Inject
    Event<Ready> ready;

    /** Fired once the schema is migrated, for work that needs the tables at start-up. */
    public record Ready() {
    }

    private volatile boolean migrated;

    /** Sees the handler jars: the WAR's class loader, or the EJB module's in the EAR (its {@code lib/}). */
    ClassLoader handlerJars = SchemaMigration.class.getClassLoader();

    @PostConstruct
    void deploy() {
        if (migrate()) {
            // Fails the deployment: the handlers' events would otherwise die on tables that are not there.
            handlerMigrations(true);
        }
    }

    /** Hookstile's own migrations; {@code true} once they are applied, {@code false} when retrying later. */
    private boolean migrate() {
        try {
            var result = Flyway.configure(SchemaMigration.class.getClassLoader())
                    .dataSource(dataSource)
                    .locations("classpath:db/migration")
                    // Our own history table, and tolerance of other tables: the database may be shared.
                    .table("hookstile_schema_history")
                    .baselineOnMigrate(true)
                    .baselineVersion("0")
                    // Partial indexes where the database has them (H2, the quick start's, has not).
                    .placeholders(placeholders(postgres()))
                    .load()
                    .migrate();
            LOG.info(() -> "Hookstile schema at version " + result.targetSchemaVersion + " ("
                    + result.migrationsExecuted + " migrations applied now)");
            return true;
        } catch (RuntimeException e) {
            LOG.log(Level.SEVERE, "Schema migration failed; events are still accepted and will be processed once "
                    + "the database is reachable. Retrying in " + RETRY_MILLIS / 1000 + " s", e);
            timers.createSingleActionTimer(RETRY_MILLIS, new TimerConfig(null, false));
            return false;
        } finally {
            // Flyway reads its configuration through Jackson, and the Jackson it finds may be the server's (Payara
            // exports its own to applications): that one's shared type cache then keeps Flyway's classes, and with
            // them this deployment's class loader, after an undeploy. It is only a cache.
            TypeFactory.defaultInstance().clearCache();
            // Flyway may have loaded a driver class, which registers it in DriverManager (ConfiguredDataSource).
            ConfiguredDataSource.deregisterOwnDrivers();
        }
    }

    /**
     * The handlers' migrations, then {@link #migrated()}. At deployment a failure is thrown, and the deployment fails
     * with its one line. After a retry (the database was down at deployment) nothing can be undeployed any more:
     * Hookstile's own work goes on, and the failure is logged as an error naming what to fix.
     */
    private void handlerMigrations(boolean deploying) {
        try {
            new HandlerMigrations(handlerJars).migrate(dataSource).ifPresent(result ->
                    LOG.info(() -> "Handler schema (" + HandlerMigrations.LOCATION + ") at version "
                            + result.targetSchemaVersion + " (" + result.migrationsExecuted
                            + " migrations applied now)"));
        } catch (HandlerMigrations.Failure e) {
            if (deploying) {
                LOG.severe(() -> e.getMessage() + ". The deployment stops: fix the migration, then start again.");
                throw e;
            }
            LOG.log(Level.SEVERE, e.getMessage() + ". Events whose handlers need these tables fail until the "
                    + "migration is fixed and Hookstile restarted.", e);
        } finally {
            TypeFactory.defaultInstance().clearCache();
            ConfiguredDataSource.deregisterOwnDrivers();
        }
        migrated = true;
        ready.fire(new Ready());
    }

    /** A driver loaded since (a driver class loaded late) is taken out of DriverManager before the undeploy. */
    @PreDestroy
    void stop() {
        ConfiguredDataSource.deregisterOwnDrivers();
    }

    /**
     * The migrations' placeholders: the conditions of partial indexes on PostgreSQL, nothing on H2; the body search's
     * function on PostgreSQL, a statement that does nothing on H2.
     */
    public static Map<String, String> placeholders(boolean postgres) {
        return Map.of("sharedBodiesOnly", postgres ? "WHERE body_digest IS NOT NULL" : "",
                "deathsOnly", postgres ? "WHERE outcome = 'dead'" : "",
                "bodyAsJsonb", postgres ? bodyAsJsonb() : "SELECT 1;");
    }

    /**
     * V18's function on PostgreSQL (db/postgresql/body_as_jsonb.sql, where bench/console-scale reads it too): its
     * exception block makes a body jsonb refuses a NULL, not the search's failure.
     */
    private static String bodyAsJsonb() {
        try (var in = SchemaMigration.class.getResourceAsStream("/db/postgresql/body_as_jsonb.sql")) {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException | NullPointerException e) {
            throw new IllegalStateException("db/postgresql/body_as_jsonb.sql is missing from the archive", e);
        }
    }

    private boolean postgres() {
        try (Connection connection = dataSource.getConnection()) {
            return connection.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT).contains("postgres");
        } catch (SQLException e) {
            throw new IllegalStateException("the database cannot be reached: " + e.getMessage(), e);
        }
    }

    @Timeout
    void retry() {
        if (migrate()) {
            handlerMigrations(false);
        }
    }

    public boolean migrated() {
        return migrated;
    }
}
