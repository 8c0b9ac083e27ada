package dev.hookstile.platform.control;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.annotation.sql.DataSourceDefinition;
import jakarta.annotation.sql.DataSourceDefinitions;
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

import javax.sql.DataSource;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Creates and migrates the schema with Flyway at start-up (scripts in {@code db/migration}, the same for PostgreSQL
 * and the embedded H2). A database that is down at start-up does not stop the application, since ingest works
 * without it: migration is retried every 10 seconds until it succeeds.
 */
@DataSourceDefinitions({
        @DataSourceDefinition(
                name = SchemaMigration.DATA_SOURCE,
                className = "dev.hookstile.platform.control.ConfiguredDataSource",
                minPoolSize = 2,
                maxPoolSize = 32,
                maxIdleTime = 300,
                properties = {
                        SchemaMigration.VALIDATED, SchemaMigration.VALIDATED_AT_MOST_EVERY_2_S,
                        SchemaMigration.VALIDATED_BY_DRIVER, SchemaMigration.VALIDATION_CLASS,
                        SchemaMigration.ALL_REPLACED_ON_FAILURE
                }),
        // Ingest's duplicate lookup, apart: every wait on it is bounded by about a second, where the processing
        // pool's bound (the socket timeout) must outlast a handler's statements. The pool validates with
        // isValid(0), which waits as long as the socket timeout allows: on the shared pool a request that drew a
        // connection due for validation as the database stopped answering waited the full 30 s (the partition
        // fault test). Here, creating a connection, validating it, waiting for a free one, and reading from it each
        // give up within a second, and the lookup is then skipped (the consumer's claim still deduplicates).
        @DataSourceDefinition(
                name = SchemaMigration.LOOKUP_DATA_SOURCE,
                className = "dev.hookstile.platform.control.ConfiguredDataSource",
                minPoolSize = 2,
                maxPoolSize = 16,
                maxIdleTime = 300,
                loginTimeout = 1,
                properties = {
                        "socketTimeoutSeconds=1",
                        "fish.payara.max-wait-time-in-millis=1000",
                        SchemaMigration.VALIDATED, SchemaMigration.VALIDATED_AT_MOST_EVERY_2_S,
                        SchemaMigration.VALIDATED_BY_DRIVER, SchemaMigration.VALIDATION_CLASS,
                        SchemaMigration.ALL_REPLACED_ON_FAILURE
                })
})
@Singleton
@Startup
@TransactionManagement(TransactionManagementType.BEAN)
public class SchemaMigration {

    public static final String DATA_SOURCE = "java:app/jdbc/hookstile";
    // Both pools: a pooled connection that died with a database restart is replaced before use, instead of costing a
    // failed delivery. At most once per 2 s per connection: validating on every allocation cost a round trip per
    // request and per try, a tenth of the ingest and consumer CPU (profiled).
    static final String VALIDATED = "fish.payara.is-connection-validation-required=true";
    static final String VALIDATED_AT_MOST_EVERY_2_S = "fish.payara.validate-atmost-once-period-in-seconds=2";
    static final String VALIDATED_BY_DRIVER = "fish.payara.connection-validation-method=custom-validation";
    static final String VALIDATION_CLASS =
            "fish.payara.validation-classname=org.glassfish.api.jdbc.validation.JDBC40ConnectionValidation";
    static final String ALL_REPLACED_ON_FAILURE = "fish.payara.fail-all-connections=true";

    /** The same database, pooled apart for ingest's duplicate lookup, with every wait bounded by about a second. */
    public static final String LOOKUP_DATA_SOURCE = "java:app/jdbc/hookstile-lookup";
    private static final long RETRY_MILLIS = 10_000;
    private static final Logger LOG = Logger.getLogger(SchemaMigration.class.getName());

    @Resource(lookup = DATA_SOURCE)
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
