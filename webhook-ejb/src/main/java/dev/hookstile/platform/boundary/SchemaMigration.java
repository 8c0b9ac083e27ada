package dev.hookstile.platform.boundary;

import com.fasterxml.jackson.databind.type.TypeFactory;
import dev.hookstile.platform.control.ConfiguredDataSource;
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
 * and the embedded H2). A database that is down at start-up does not stop the application, since ingest works
 * without it: migration is retried every 10 seconds until it succeeds.
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

    @PostConstruct
    void migrate() {
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
            migrated = true;
            ready.fire(new Ready());
            LOG.info(() -> "Hookstile schema at version " + result.targetSchemaVersion + " ("
                    + result.migrationsExecuted + " migrations applied now)");
        } catch (RuntimeException e) {
            LOG.log(Level.SEVERE, "Schema migration failed; events are still accepted and will be processed once "
                    + "the database is reachable. Retrying in " + RETRY_MILLIS / 1000 + " s", e);
            timers.createSingleActionTimer(RETRY_MILLIS, new TimerConfig(null, false));
        } finally {
            // Flyway reads its configuration through Jackson, and the Jackson it finds may be the server's (Payara
            // exports its own to applications): that one's shared type cache then keeps Flyway's classes, and with
            // them this deployment's class loader, after an undeploy. It is only a cache.
            TypeFactory.defaultInstance().clearCache();
            // Flyway may have loaded a driver class, which registers it in DriverManager (ConfiguredDataSource).
            ConfiguredDataSource.deregisterOwnDrivers();
        }
    }

    /** A driver loaded since (a driver class loaded late) is taken out of DriverManager before the undeploy. */
    @PreDestroy
    void stop() {
        ConfiguredDataSource.deregisterOwnDrivers();
    }

    /** The migrations' placeholders: the conditions of partial indexes on PostgreSQL, nothing on H2. */
    public static Map<String, String> placeholders(boolean postgres) {
        return Map.of("sharedBodiesOnly", postgres ? "WHERE body_digest IS NOT NULL" : "",
                "deathsOnly", postgres ? "WHERE outcome = 'dead'" : "");
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
        migrate();
    }

    public boolean migrated() {
        return migrated;
    }
}
