package dev.hookstile.platform.control;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.output.MigrateResult;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * The handlers' own tables: Flyway migrations that handler jars ship under {@value #LOCATION}, applied after
 * Hookstile's own, in a Flyway run of their own with a history of their own ({@value #HISTORY_TABLE}), so that
 * neither's versions can collide with the other's and Hookstile's upgrades never touch a handler's history.
 *
 * <p>The scripts run as written (no placeholders), on whichever database Hookstile uses: the embedded H2 (in
 * PostgreSQL mode) or PostgreSQL. The jars of one deployment share the history, so their versions must differ; a jar
 * added later with lower versions than those applied is applied out of order. A handler jar taken out of the
 * deployment leaves its tables and its rows in the history; that is no error ({@code *:missing} is ignored), so
 * removing a handler never stops Hookstile.
 */
public final class HandlerMigrations {

    /** Where a handler jar keeps its migrations ({@code src/main/resources/db/handler-migration/V1__....sql}). */
    public static final String LOCATION = "db/handler-migration";
    public static final String HISTORY_TABLE = "handler_schema_history";

    private final ClassLoader classLoader;

    /** @param classLoader sees the handler jars: the WAR's, or the EAR's (whose {@code lib/} holds them) */
    public HandlerMigrations(ClassLoader classLoader) {
        this.classLoader = Objects.requireNonNull(classLoader, "classLoader");
    }

    /** Whether any jar ships handler migrations; without any, no history table is created. */
    public boolean shipped() {
        try {
            return classLoader.getResources(LOCATION).hasMoreElements();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Applies the handlers' pending migrations.
     *
     * @return how many were applied now and the version the handlers' schema is at; empty when no jar ships any
     * @throws Failure naming the migration and the database's reason, on one line
     */
    public Optional<MigrateResult> migrate(DataSource dataSource) {
        if (!shipped()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Flyway.configure(classLoader)
                    .dataSource(dataSource)
                    .locations("classpath:" + LOCATION)
                    .table(HISTORY_TABLE)
                    // Hookstile's tables are there already: the handlers' history starts below their first version.
                    .baselineOnMigrate(true)
                    .baselineVersion("0")
                    .placeholderReplacement(false)
                    // Several jars number their migrations independently: one added later with lower versions than
                    // those applied is applied, not refused; one taken out leaves its history behind.
                    .outOfOrder(true)
                    .ignoreMigrationPatterns("*:missing", "*:future")
                    .load()
                    .migrate());
        } catch (FlywayException e) {
            throw new Failure(oneLine(e.getMessage()), e);
        }
    }

    /**
     * Flyway's report spans a dozen lines, underlined and indented; a deployment's failure is read in one line (the
     * launcher's, a log search), so it is joined into one: "Migration V2__x.sql failed; SQL State: ...; Message: ...".
     */
    static String oneLine(String report) {
        if (report == null) {
            return "no reason given";
        }
        return report.lines()
                .map(String::strip)
                .filter(line -> !line.isEmpty() && !line.chars().allMatch(c -> c == '-'))
                // Advice for Flyway's command line, which nobody running Hookstile has.
                .filter(line -> !line.contains("Run Flyway with -X"))
                .map(line -> line.replaceAll("\\s+", " ").replaceFirst(" : ", ": "))
                .collect(Collectors.joining("; "));
    }

    /** A handler migration that failed: the deployment must not go on without the handlers' tables. */
    public static final class Failure extends RuntimeException {

        Failure(String reason, Throwable cause) {
            super("Handler schema migration failed (" + LOCATION + ", history " + HISTORY_TABLE + "): " + reason,
                    cause);
        }
    }
}
