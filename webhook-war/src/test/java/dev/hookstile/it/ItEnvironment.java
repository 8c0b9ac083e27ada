package dev.hookstile.it;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
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
        Path data = arquillian.resolve("data");
        try {
            Files.createDirectories(data.resolve("broker"));
            Files.createDirectories(arquillian.resolve("tmp"));
            String raProperties = "ServerUrl=" + asadminEscape("vm://localhost?create=false")
                    + ":BrokerXmlConfig=" + asadminEscape("hookstile:" + data.resolve("broker").toAbsolutePath());
            // As ./hookstile runs it (config/src/main/payara/pre-boot.asadmin): no HTTP/2 cleartext upgrade. The
            // JDK's HttpClient offers it on a connection's first request; a servlet's answer to an upgraded GET then
            // reached it as HTTP/1.1 bytes where HTTP/2 frames were due (a protocol error), and later requests on
            // the connection went down the upgraded path, which production never takes.
            Files.writeString(arquillian.resolve("pre-boot.asadmin"),
                    "set configs.config.server-config.network-config.protocols.protocol.http-listener.http"
                            + ".http2-enabled=false\n");
            Files.writeString(arquillian.resolve("post-boot.asadmin"),
                    Files.readString(runtime.resolve("templates/post-boot.asadmin"))
                            .replace("@RA_PROPERTIES@", raProperties)
                            .replace("@RAR@", runtime.resolve("activemq-rar.rar").toString()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
     * of another checkout, left behind (events, the test handler's tables, a migration history). Schemas of runs
     * older than a day are dropped; a concurrent run's are left alone.
     */
    private static String inFreshSchema(String url, String user, String password) {
        long now = System.currentTimeMillis();
        String schema = "hookstile_it_" + now;
        try (Connection connection = DriverManager.getConnection(url, user, password);
             Statement statement = connection.createStatement()) {
            List<String> stale = new ArrayList<>();
            try (ResultSet schemas = statement.executeQuery(
                    "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'hookstile\\_it\\_%'")) {
                while (schemas.next()) {
                    String name = schemas.getString(1);
                    String millis = name.substring("hookstile_it_".length());
                    if (millis.chars().allMatch(Character::isDigit)
                            && now - Long.parseLong(millis) > TimeUnit.DAYS.toMillis(1)) {
                        stale.add(name);
                    }
                }
            }
            for (String name : stale) {
                statement.execute("DROP SCHEMA IF EXISTS " + name + " CASCADE");
            }
            statement.execute("CREATE SCHEMA " + schema);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create the test schema " + schema + " in " + url, e);
        }
        return url + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema;
    }

    private static boolean answers(String url, String user, String password) {
        try (Connection ignored = DriverManager.getConnection(url, user, password)) {
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    static String asadminEscape(String value) {
        return value.replace("\\", "\\\\").replace(":", "\\:").replace("=", "\\=");
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
