package dev.hookstile.test;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.stream.Stream;

/**
 * Prepares a handler project's integration tests once per test run, before Arquillian reads its configuration: the
 * Payara Micro that {@link HookstileDeployment}s run on, with the broker's resource adapter deployed before them,
 * a database schema of the run's own, and the operator token {@link Hookstile} signs in with.
 *
 * <p>Does nothing unless the system property {@value #RUNTIME} names the directory holding {@code payara-micro.jar},
 * {@code hookstile.war} and the unpacked {@code dev.hookstile:config:zip:runtime} (the example's pom shows how
 * maven-dependency-plugin fills it and failsafe sets the property), so unit tests run as before.
 *
 * <p>The database: {@code HOOKSTILE_TEST_DB_URL} (+ {@code _USER}, {@code _PASSWORD}) if set; else PostgreSQL on
 * 127.0.0.1:5432, database {@code test}. Each run works in a new schema, so a handler's tables start empty and a run
 * never sees another's events; schemas of runs older than a day are dropped. Without a database the run stops with
 * that message: a handler's IT is about its own tables, which the embedded quick-start database cannot show it.
 *
 * <p>Registered with JUnit (META-INF/services); Arquillian reads the kit's {@code arquillian.xml}, filled from the
 * system properties set here, unless the project has one of its own.
 */
public final class TestRuntime implements LauncherSessionListener {

    /** The directory with Payara Micro, Hookstile's WAR and the runtime files. */
    public static final String RUNTIME = "hookstile.test.runtime";
    static final String DB_URL = "hookstile.test.db.url";
    static final String DB_USER = "hookstile.test.db.user";
    static final String DB_PASSWORD = "hookstile.test.db.password";
    static final String ADMIN_TOKEN = "hookstile.test.admin-token";
    static final String LOCAL_POSTGRES = "jdbc:postgresql://127.0.0.1:5432/test";
    private static final String SCHEMA_PREFIX = "hookstile_test_";

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        String runtime = System.getProperty(RUNTIME);
        if (runtime != null && System.getProperty(DB_URL) == null) {
            prepare(Path.of(runtime).toAbsolutePath());
        }
    }

    private static void prepare(Path runtime) {
        for (String file : new String[] {"payara-micro.jar", "hookstile.war", "activemq-rar.rar",
                "templates/post-boot.asadmin"}) {
            if (!Files.isRegularFile(runtime.resolve(file))) {
                throw new IllegalStateException(RUNTIME + " is " + runtime + ", which holds no " + file
                        + ": copy payara-micro.jar and hookstile.war and unpack dev.hookstile:config:zip:runtime there"
                        + " (see examples/handler-example/handler/pom.xml)");
            }
        }
        chooseDatabase();
        Path work = runtime.resolve("run");
        deleteRecursively(work);
        writeBootCommands(runtime, work);
        byte[] token = new byte[24];
        new SecureRandom().nextBytes(token);
        System.setProperty(ADMIN_TOKEN, "test-" + HexFormat.of().formatHex(token));
        System.setProperty("hookstile.test.micro-jar", runtime.resolve("payara-micro.jar").toString());
        System.setProperty("hookstile.test.war", runtime.resolve("hookstile.war").toString());
        System.setProperty("hookstile.test.work", work.toString());
        if (System.getProperty("arquillian.xml") == null
                && Thread.currentThread().getContextClassLoader().getResource("arquillian.xml") == null) {
            System.setProperty("arquillian.xml", "dev/hookstile/test/arquillian.xml");
        }
    }

    /**
     * Prepares {@code work} for a Payara Micro that runs Hookstile as the launcher does (Hookstile's own ITs prepare
     * theirs with it too): {@code data/broker} for the embedded broker, {@code tmp}, and the pre- and post-boot
     * command files, the latter from the runtime's template with the broker's resource adapter filled in.
     *
     * @param runtime the unpacked {@code dev.hookstile:config:zip:runtime}
     */
    public static void writeBootCommands(Path runtime, Path work) {
        Path data = work.resolve("data").toAbsolutePath();
        try {
            Files.createDirectories(data.resolve("broker"));
            Files.createDirectories(work.resolve("tmp"));
            String raProperties = "ServerUrl=" + asadminEscape("vm://localhost?create=false")
                    + ":BrokerXmlConfig=" + asadminEscape("hookstile:" + data.resolve("broker"));
            // As ./hookstile runs it (config/src/main/payara/pre-boot.asadmin): no HTTP/2 cleartext upgrade. The
            // JDK's HttpClient offers it on a connection's first request; a servlet's answer to an upgraded GET then
            // reached it as HTTP/1.1 bytes where HTTP/2 frames were due (a protocol error), and later requests on
            // the connection went down the upgraded path, which production never takes.
            Files.writeString(work.resolve("pre-boot.asadmin"),
                    "set configs.config.server-config.network-config.protocols.protocol.http-listener.http"
                            + ".http2-enabled=false\n");
            Files.writeString(work.resolve("post-boot.asadmin"),
                    Files.readString(runtime.resolve("templates/post-boot.asadmin"))
                            .replace("@RA_PROPERTIES@", raProperties)
                            .replace("@RAR@", runtime.resolve("activemq-rar.rar").toString()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Creates a schema of this run's own in the PostgreSQL database at {@code url}, named {@code prefix} and the
     * time, after dropping this prefix's schemas older than a day (a concurrent run's are left alone).
     *
     * @return the URL that works in the new schema
     */
    public static String freshSchema(String url, String user, String password, String prefix) throws SQLException {
        String schema = prefix + System.currentTimeMillis();
        try (Connection connection = DriverManager.getConnection(url, user, password);
             Statement statement = connection.createStatement()) {
            statement.execute("DO $$ DECLARE s text; BEGIN FOR s IN SELECT nspname FROM pg_namespace"
                    + " WHERE nspname ~ '^" + prefix + "[0-9]+$'"
                    + " AND substring(nspname from " + (prefix.length() + 1) + ")::bigint < "
                    + (System.currentTimeMillis() - 86_400_000L)
                    + " LOOP EXECUTE 'DROP SCHEMA ' || quote_ident(s) || ' CASCADE'; END LOOP; END $$");
            statement.execute("CREATE SCHEMA " + schema);
        }
        return url + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema;
    }

    private static void chooseDatabase() {
        String url = System.getenv("HOOKSTILE_TEST_DB_URL");
        String user = System.getenv().getOrDefault("HOOKSTILE_TEST_DB_USER", "postgres");
        String password = System.getenv().getOrDefault("HOOKSTILE_TEST_DB_PASSWORD", "");
        if (url == null || url.isBlank()) {
            url = LOCAL_POSTGRES;
        }
        String schemaUrl;
        try {
            schemaUrl = freshSchema(url, user, password, SCHEMA_PREFIX);
        } catch (SQLException e) {
            throw new IllegalStateException("Hookstile's integration tests need PostgreSQL: none answered at " + url
                    + " (set HOOKSTILE_TEST_DB_URL, _USER and _PASSWORD, or start one on 127.0.0.1:5432 with a"
                    + " database named test): " + e.getMessage(), e);
        }
        System.setProperty(DB_URL, schemaUrl);
        System.setProperty(DB_USER, user);
        System.setProperty(DB_PASSWORD, password);
        System.err.println("Hookstile's integration tests use " + schemaUrl);
    }

    /** A connection to the run's database schema, where Hookstile's tables and the handler's own live. */
    public static Connection database() throws SQLException {
        String url = System.getProperty(DB_URL);
        if (url == null) {
            throw new IllegalStateException(RUNTIME + " is not set: the test runs without Hookstile's runtime");
        }
        return DriverManager.getConnection(url, System.getProperty(DB_USER), System.getProperty(DB_PASSWORD));
    }

    static String adminToken() {
        String token = System.getProperty(ADMIN_TOKEN);
        if (token == null) {
            throw new IllegalStateException(RUNTIME + " is not set: the test runs without Hookstile's runtime");
        }
        return token;
    }

    private static String asadminEscape(String value) {
        return value.replace("\\", "\\\\").replace(":", "\\:").replace("=", "\\=");
    }

    private static void deleteRecursively(Path dir) {
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
