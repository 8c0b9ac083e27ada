package dev.hookstile.it;

import dev.hookstile.test.TestRuntime;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.UUID;
import java.util.Comparator;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * Prepares the integration-test environment once per test run, before Arquillian reads {@code arquillian.xml}:
 * chooses the database and writes the post-boot commands and broker config from the same templates the launcher
 * uses. The choices reach Payara Micro as system properties substituted into {@code arquillian.xml}.
 *
 * <p>The database: {@code HOOKSTILE_TEST_DB_URL} (+ {@code _USER}, {@code _PASSWORD}) if set; else PostgreSQL on
 * 127.0.0.1:5432, database {@code test}, if it answers; else the embedded H2 database, announced loudly. On
 * PostgreSQL each run works in a new schema of its own.
 */
public class ItEnvironment implements LauncherSessionListener {

    static final String LOCAL_POSTGRES = "jdbc:postgresql://127.0.0.1:5432/test";

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        if (System.getProperty("hookstile.it.dir") != null && System.getProperty("hookstile.test.db.url") == null) {
            prepare();
        }
    }

    private static void prepare() {
        chooseDatabase();
        Path runtime = Path.of(System.getProperty("hookstile.it.runtime"));
        Path arquillian = dir().resolve("arquillian");
        deleteRecursively(arquillian);
        TestRuntime.writeBootCommands(runtime, arquillian);
        System.setProperty("hookstile.it.micro-jar", runtime.resolve("payara-micro.jar").toString());
        System.setProperty("hookstile.it.arquillian-dir", arquillian.toString());
    }

    private static void chooseDatabase() {
        String url = System.getenv("HOOKSTILE_TEST_DB_URL");
        String user = System.getenv().getOrDefault("HOOKSTILE_TEST_DB_USER", "postgres");
        String password = System.getenv().getOrDefault("HOOKSTILE_TEST_DB_PASSWORD", "");
        String why;
        if (url != null && !url.isBlank()) {
            why = "from HOOKSTILE_TEST_DB_URL";
        } else if (answers(LOCAL_POSTGRES, user, password)) {
            url = LOCAL_POSTGRES;
            why = "PostgreSQL answers on 127.0.0.1:5432";
        } else {
            url = "";
            why = null;
        }
        if (!url.isEmpty()) {
            url = inFreshSchema(url, user, password);
        }
        System.setProperty("hookstile.test.db.url", url);
        System.setProperty("hookstile.test.db.user", url.isEmpty() ? "" : user);
        System.setProperty("hookstile.test.db.password", url.isEmpty() ? "" : password);
        if (why == null) {
            System.err.println("""

                    ************************************************************************************
                    *  NO POSTGRESQL: the integration tests run against the EMBEDDED H2 database.      *
                    *  Set HOOKSTILE_TEST_DB_URL or start PostgreSQL on 127.0.0.1:5432 (database test)  *
                    *  to test what production runs.                                                    *
                    ************************************************************************************
                    """);
        } else {
            System.err.println("Integration tests use " + url + " (" + why + ")");
        }
    }

    /** The database URL the tests chose, or empty for the embedded database. */
    public static String databaseUrl() {
        return System.getProperty("hookstile.test.db.url", "");
    }

    /**
     * A fresh directory for a test that runs its own servers against PostgreSQL (data directories, logs); the test is
     * skipped on the embedded database, which only one process can open.
     */
    public static Path faultWorkDirectory() throws IOException {
        assumeFalse(databaseUrl().isEmpty(), "needs PostgreSQL");
        return Files.createDirectories(dir().resolve("faults-" + UUID.randomUUID()));
    }

    public static Path dir() {
        return Path.of(System.getProperty("hookstile.it.dir"));
    }

    /**
     * Each run gets a schema of its own in the test database, so no test depends on what an earlier run, or a run
     * of another checkout, left behind (events, the test handler's tables, a migration history).
     */
    private static String inFreshSchema(String url, String user, String password) {
        try {
            return TestRuntime.freshSchema(url, user, password, "hookstile_it_");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create a test schema in " + url, e);
        }
    }

    private static boolean answers(String url, String user, String password) {
        try {
            DriverManager.getConnection(url, user, password).close();
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
