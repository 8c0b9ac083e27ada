package dev.hookstile.launcher;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * When {@code ./hookstile} builds before it starts: the real launcher, in a checkout whose build ({@code mvnw}) and
 * {@code java} are stand-ins that only record that they ran, so that what is checked is the launcher's decision.
 */
class LauncherBuildTest {

    private static final Path LAUNCHER = Path.of("..", "hookstile").toAbsolutePath().normalize();
    private static final Instant BUILT = Instant.parse("2026-11-01T10:00:00Z");

    @TempDir
    Path home;
    private Path war;
    private Path source;

    private record Run(int exit, String stderr, boolean built, boolean started) {
    }

    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    private static void executable(Path file, String script) throws IOException {
        write(file, script);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
    }

    private static void age(Path file, Instant at) throws IOException {
        Files.setLastModifiedTime(file, FileTime.from(at));
    }

    @BeforeEach
    void checkoutAsBuilt() throws IOException {
        Files.copy(LAUNCHER, home.resolve("hookstile"));
        // The library it sources (config/urls.sh), as in a checkout.
        Files.createDirectories(home.resolve("config"));
        Files.copy(LAUNCHER.resolveSibling("config").resolve("urls.sh"), home.resolve("config/urls.sh"));
        Files.setPosixFilePermissions(home.resolve("hookstile"), PosixFilePermissions.fromString("rwx------"));
        // The build stand-in: prints module lines as Maven does, records that it ran, and leaves the WAR newer.
        executable(home.resolve("mvnw"), """
                #!/usr/bin/env bash
                echo "[INFO] Building Hookstile :: EJB module 0.1.0-SNAPSHOT                     [4/11]"
                echo "[INFO] Building Hookstile :: web module 0.1.0-SNAPSHOT                     [6/11]"
                touch "$(dirname "$0")/built" "$(dirname "$0")/webhook-war/target/hookstile.war"
                exit "${FAKE_BUILD_EXIT:-0}"
                """);
        executable(home.resolve("bin/java"), """
                #!/usr/bin/env bash
                touch "$HOOKSTILE_DATA_DIR/started"
                """);
        Path runtime = home.resolve("config/target/runtime");
        write(runtime.resolve("micro/launch-micro.jar"), "");
        write(runtime.resolve("micro/.env"), "MICRO_OPENS=\"--add-opens java.base/java.lang=ALL-UNNAMED\"\n");
        write(runtime.resolve("micro/config/logging.properties"), "handlers=x\n.level=INFO\n");
        Files.createDirectories(runtime.resolve("micro/docroot"));
        Files.createDirectories(runtime.resolve("micro/lib"));
        write(runtime.resolve("activemq-rar.rar"), "... hookstile-broker.jar ...");
        for (String template : new String[] {"deploy-app.asadmin", "hazelcast.xml", "pre-boot.asadmin",
                "post-boot.asadmin"}) {
            write(runtime.resolve("templates").resolve(template), "@CLUSTER_NAME@ @TX_LOG_DIR@\n");
        }
        write(runtime.resolve("hookstile-logging.jar"), "");
        source = home.resolve("webhook-ejb/src/main/java/dev/hookstile/Some.java");
        write(source, "class Some {}");
        write(home.resolve("pom.xml"), "<project/>");
        war = home.resolve("webhook-war/target/hookstile.war");
        write(war, "war");
        try (var files = Files.walk(home)) {
            for (Path file : files.toList()) {
                age(file, BUILT.minusSeconds(60));
            }
        }
        age(war, BUILT);
    }

    private Run launch(Map<String, String> environment) throws IOException, InterruptedException {
        var process = new ProcessBuilder("bash", home.resolve("hookstile").toString());
        process.environment().put("PATH", home.resolve("bin") + ":" + System.getenv("PATH"));
        process.environment().put("HOOKSTILE_DATA_DIR", home.resolve("data").toString());
        process.environment().putAll(environment);
        process.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Process launcher = process.start();
        assertTrue(launcher.waitFor(60, TimeUnit.SECONDS), "the launcher did not end");
        String stderr = new String(launcher.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Run(launcher.exitValue(), stderr, Files.exists(home.resolve("built")),
                Files.exists(home.resolve("data/started")));
    }

    @Test
    void aWarNewerThanEverySourceStartsWithoutABuild() throws Exception {
        Run run = launch(Map.of());

        assertEquals(0, run.exit(), run.stderr());
        assertFalse(run.built(), run.stderr());
        assertTrue(run.started(), run.stderr());
    }

    @Test
    void anEditedSourceIsBuiltBeforeTheStartAndTheBuildShowsItsProgress() throws Exception {
        age(source, BUILT.plusSeconds(5));

        Run run = launch(Map.of());

        assertEquals(0, run.exit(), run.stderr());
        assertTrue(run.built(), run.stderr());
        assertTrue(run.started(), run.stderr());
        assertTrue(run.stderr().contains("webhook-ejb/src/main/java/dev/hookstile/Some.java is newer than the WAR"),
                run.stderr());
        assertTrue(run.stderr().contains("[6/11] Hookstile :: web module"), run.stderr());
    }

    @Test
    void anEditedPomIsBuiltToo() throws Exception {
        age(home.resolve("pom.xml"), BUILT.plusSeconds(5));

        assertTrue(launch(Map.of()).built());
    }

    @Test
    void aWarOfYourOwnIsNotRebuiltForHookstilesSources() throws Exception {
        age(source, BUILT.plusSeconds(5));
        Path own = home.resolve("own.war");
        write(own, "war");

        Run run = launch(Map.of("HOOKSTILE_WAR", own.toString()));

        assertFalse(run.built(), run.stderr());
        assertTrue(run.started(), run.stderr());
    }

    @Test
    void aFailedBuildStartsNothingAndSaysWhereItsOutputIs() throws Exception {
        age(source, BUILT.plusSeconds(5));

        Run run = launch(Map.of("FAKE_BUILD_EXIT", "1"));

        assertEquals(1, run.exit(), run.stderr());
        assertFalse(run.started(), run.stderr());
        assertTrue(run.stderr().contains("the build failed; its output is in"), run.stderr());
    }
}
