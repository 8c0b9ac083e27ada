package dev.hookstile.start.boundary;

import dev.hookstile.it.Deployments;
import dev.hookstile.it.ServerProcess;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The first contact, with the real launcher: a mistake ends {@code ./hookstile} with a non-zero status before its port
 * ever opens, naming each setting to fix; {@code ./hookstile check} says the same without a server; a good start says
 * where everything is in a screen.
 */
class StartIT {

    private static final String STRIPE_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

    static Stream<Arguments> mistakes() {
        return Stream.of(
                Arguments.of("an unknown provider", Map.of("HOOKSTILE_SOURCES", "pay",
                        "HOOKSTILE_SOURCES_PAY_PROVIDER", "strype", "HOOKSTILE_SOURCES_PAY_SECRETS", STRIPE_SECRET),
                        2, List.of("hookstile: HOOKSTILE_SOURCES_PAY_PROVIDER (hookstile.sources.pay.provider): unknown"
                                + " provider 'strype' (github, hmac, meta, shopify, slack, standard-webhooks, stripe,"
                                + " svix, twilio)")),
                Arguments.of("a missing secret and a bad number, both listed", Map.of("HOOKSTILE_SOURCES", "repo",
                        "HOOKSTILE_SOURCES_REPO_PROVIDER", "github", "HOOKSTILE_INGEST_MAX_BODY_BYTES", "1mb"),
                        2, List.of("hookstile: HOOKSTILE_SOURCES_REPO_SECRETS (hookstile.sources.repo.secrets): source 'repo'"
                                + " has no secret",
                                "hookstile: HOOKSTILE_INGEST_MAX_BODY_BYTES (hookstile.ingest.max-body-bytes): '1mb' is"
                                + " not a whole number")),
                Arguments.of("a weak admin token", Map.of("HOOKSTILE_ADMIN_TOKEN", "letmein"),
                        2, List.of("hookstile: HOOKSTILE_ADMIN_TOKEN (hookstile.admin.token): is 7 characters long;"
                                + " the operator API needs at least 32")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mistakes")
    void aMistakeEndsTheStartBeforeThePortOpensAndNamesEachSetting(String mistake, Map<String, String> settings,
            int status, List<String> lines, @TempDir Path work) throws IOException {
        try (var server = new ServerProcess(work, Deployments.exportTo(work.resolve("hookstile.war")))) {
            server.with("HOOKSTILE_LOG_LEVEL", "warning");
            settings.forEach(server::with);

            assertEquals(status, server.startExpectingExit(), read(server.output()));

            String output = read(server.output());
            for (String line : lines) {
                assertTrue(output.contains(line), "missing '" + line + "' in:\n" + output);
            }
            assertTrue(output.contains("hookstile: not started: " + lines.size()
                    + (lines.size() == 1 ? " setting" : " settings") + " to fix"), output);
            assertTrue(output.lines().count() < 20, "a refused start fits a screen:\n" + output);
            assertTrue(output.lines().noneMatch(l -> l.contains("WELD-") || l.startsWith("\tat ")), output);

            var checked = server.check();
            assertEquals(2, checked.status(), checked.output());
            for (String line : lines) {
                assertTrue(checked.output().contains(line.replace("hookstile: ", "problem: ")), checked.output());
            }
        }
    }

    @Test
    void aHandlerWhoseSettingIsMissingIsNamedAndAFailingHandlerOrMigrationEndsTheStartToo(@TempDir Path work)
            throws IOException {
        Path needsSetting = work.resolve("needs-setting.war");
        Deployments.hookstileWithTestHandler().addClass(ReceiptsHandler.class).as(ZipExporter.class)
                .exportTo(needsSetting.toFile(), true);
        Files.createDirectories(work.resolve("a"));
        Files.createDirectories(work.resolve("b"));
        try (var server = new ServerProcess(work.resolve("a"), needsSetting)) {
            server.with("HOOKSTILE_LOG_LEVEL", "warning");
            assertEquals(2, server.startExpectingExit(), read(server.output()));
            assertTrue(read(server.output()).contains("hookstile: IT_RECEIPTS_URL (it.receipts-url): is required by "
                    + ReceiptsHandler.class.getName() + ".receipts, and not set"), read(server.output()));
            assertEquals(2, server.check().status());
        }
        Path broken = work.resolve("broken.war");
        Deployments.hookstileWithTestHandler().addClass(BrokenStart.class).as(ZipExporter.class)
                .exportTo(broken.toFile(), true);
        try (var server = new ServerProcess(work.resolve("b"), broken)) {
            server.with("HOOKSTILE_LOG_LEVEL", "warning");
            assertEquals(1, server.startExpectingExit(), read(server.output()));
            String output = read(server.output());
            assertTrue(output.contains("hookstile: not started: the application's deployment failed:"), output);
            assertTrue(output.contains("everything the server logged is in "), output);
            assertTrue(Files.readString(work.resolve("b/data/logs/server0.log"))
                    .contains("the receipts service's client could not be built"), "the cause is in the log file");
        }
        Path brokenMigration = work.resolve("broken-migration.war");
        Deployments.hookstileWithTestHandler().addAsResource(new org.jboss.shrinkwrap.api.asset.StringAsset(
                        "create tabel receipt (id bigint primary key);\n"), "db/handler-migration/V1__receipt.sql")
                .as(ZipExporter.class).exportTo(brokenMigration.toFile(), true);
        Files.createDirectories(work.resolve("c"));
        try (var server = new ServerProcess(work.resolve("c"), brokenMigration)) {
            server.with("HOOKSTILE_LOG_LEVEL", "warning");
            assertEquals(1, server.startExpectingExit(), read(server.output()));
            String output = read(server.output());
            assertTrue(output.contains("hookstile: not started: "), output);
            assertTrue(output.contains("V1__receipt.sql"), "the migration is named on the console:\n" + output);
        }
    }

    @Test
    void aGoodStartSaysWhereEverythingIsOnOneScreenAndLogsTheRestToAFile(@TempDir Path work) throws IOException {
        try (var server = new ServerProcess(work, Deployments.exportTo(work.resolve("hookstile.war")))) {
            server.with("HOOKSTILE_LOG_LEVEL", "warning").with("HOOKSTILE_SOURCES", "pay")
                    .with("HOOKSTILE_SOURCES_PAY_PROVIDER", "stripe")
                    .with("HOOKSTILE_SOURCES_PAY_SECRETS", STRIPE_SECRET);

            var checked = server.check();
            assertEquals(0, checked.status(), checked.output());
            assertTrue(checked.output().contains("source pay: stripe at POST /webhooks/pay, 1 secret"), checked.output());
            assertTrue(checked.output().contains("configuration OK"), checked.output());
            assertTrue(!checked.output().contains(STRIPE_SECRET), "a secret in: " + checked.output());

            server.start();
            String output = awaitReadyLine(server);
            List<String> lines = output.lines().toList();
            assertTrue(lines.size() <= 25, "at most 25 lines before ready:\n" + output);
            assertTrue(lines.stream().allMatch(l -> l.startsWith("hookstile: ")), output);
            assertTrue(output.contains("hookstile: source pay: stripe at POST /webhooks/pay"), output);
            assertTrue(output.contains("hookstile: admin token: "), output);
            assertTrue(output.contains("console at http://localhost:" + server.port() + "/console/"), output);
            assertTrue(output.contains("hookstile: database: "), output);
            assertTrue(!output.contains(STRIPE_SECRET), output);
            String log = Files.readString(work.resolve("data/logs/server0.log"));
            assertTrue(log.contains("Payara Micro") && log.lines().count() > 100, "Payara's lines are in the file");
        }
    }

    @Test
    void theFirstStopWritesTheClassArchiveThatTheNextStartMaps(@TempDir Path work) throws IOException {
        try (var server = new ServerProcess(work, Deployments.exportTo(work.resolve("hookstile.war")))) {
            server.with("HOOKSTILE_CDS", "on");
            server.start();
            String written = server.commandLine().stream().filter(a -> a.startsWith("-XX:ArchiveClassesAtExit="))
                    .findFirst().orElseThrow(() -> new AssertionError("no archive asked for: " + server.commandLine()))
                    .substring("-XX:ArchiveClassesAtExit=".length());
            assertTrue(server.stop(), "SIGTERM stops the server, the archive written");
            assertTrue(Files.size(Path.of(written)) > 10_000_000, written);

            server.start();
            String mapped = server.commandLine().stream().filter(a -> a.startsWith("-XX:SharedArchiveFile="))
                    .findFirst().orElseThrow(() -> new AssertionError("no archive mapped: " + server.commandLine()))
                    .substring("-XX:SharedArchiveFile=".length());
            assertEquals(written.substring(0, written.indexOf(".new.")), mapped);
            assertTrue(Files.exists(Path.of(mapped)) && !Files.exists(Path.of(written)), "checked and renamed");
            assertTrue(server.stop());
            Files.deleteIfExists(Path.of(mapped));
        }
    }

    private static String awaitReadyLine(ServerProcess server) throws IOException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        String output = read(server.output());
        while (!output.contains("hookstile: ready in ") && System.nanoTime() < deadline) {
            dev.hookstile.it.Webhooks.sleep(java.time.Duration.ofMillis(200));
            output = read(server.output());
        }
        assertTrue(output.contains("hookstile: ready in "), output);
        return output;
    }

    private static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    }
}
