package com.example.billing.it;

import dev.hookstile.test.Deliveries;
import dev.hookstile.test.EventOutcome;
import dev.hookstile.test.Hookstile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The example's WAR run the way {@code docs/handlers.md} tells a reader to run it: the command of its
 * {@code bash run-example} block, read from the page itself, started from the repository's root with the real
 * launcher, on the embedded broker and database. Only the port and the data directory are the test's own. A Stripe
 * {@code invoice.paid} signed with the page's secret must be processed by the example's handler: its table came with
 * its jar (a handler migration, on H2 here), and without a receipts service it records the invoice and schedules no
 * receipt.
 */
class ExampleAsDocumentedIT {

    private static final Path HOME = Path.of(System.getProperty("hookstile.home")).toAbsolutePath().normalize();
    private static final Pattern BLOCK = Pattern.compile("(?ms)^[ ]*```bash run-example\\n(.*?)^[ ]*```");
    private static final Pattern ASSIGNMENT = Pattern.compile("([A-Z][A-Z0-9_]*)=(\\S+)");

    private Process server;

    /** The environment the page's command sets before {@code ./hookstile}. */
    private static Map<String, String> documentedEnvironment() throws IOException {
        String page = Files.readString(HOME.resolve("docs/handlers.md"));
        Matcher block = BLOCK.matcher(page);
        assertTrue(block.find(), "docs/handlers.md has no ```bash run-example block");
        String command = block.group(1).replace("\\\n", " ").lines()
                .filter(line -> line.strip().endsWith("./hookstile"))
                .findFirst().orElseThrow(() -> new AssertionError("no ./hookstile command in " + block.group(1)));
        var environment = new LinkedHashMap<String, String>();
        Matcher assignment = ASSIGNMENT.matcher(command.substring(0, command.lastIndexOf("./hookstile")));
        while (assignment.find()) {
            environment.put(assignment.group(1), assignment.group(2));
        }
        assertEquals("examples/handler-example/war/target/billing-webhooks.war", environment.get("HOOKSTILE_WAR"));
        return environment;
    }

    @AfterEach
    void stop() throws InterruptedException {
        if (server != null && server.isAlive()) {
            server.destroy();
            if (!server.waitFor(60, TimeUnit.SECONDS)) {
                server.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void theExampleRunsAsDocumentedAndItsHandlerRecordsAPaidInvoice() throws Exception {
        Map<String, String> documented = documentedEnvironment();
        Path work = Files.createDirectories(Path.of(System.getProperty("hookstile.it.dir"))
                .resolve("example-" + System.currentTimeMillis()));
        int port = freePort();
        var launcher = new ProcessBuilder("./hookstile").directory(HOME.toFile())
                .redirectErrorStream(true).redirectOutput(work.resolve("server.log").toFile());
        Map<String, String> environment = launcher.environment();
        // Nothing of the shell around the test: what the page sets is what the server runs with.
        environment.keySet().removeIf(name -> name.startsWith("HOOKSTILE_") || name.startsWith("BILLING_"));
        environment.putAll(documented);
        environment.put("HOOKSTILE_PORT", String.valueOf(port));
        environment.put("HOOKSTILE_DATA_DIR", work.resolve("data").toString());
        server = launcher.start();
        URI base = URI.create("http://127.0.0.1:" + port + "/");
        awaitReady(base, work.resolve("server.log"));

        // The operator token generated at the first start, where the README says it is. Without it the application
        // did not deploy, whatever readiness said.
        Path tokenFile = work.resolve("data/admin-token");
        assertTrue(Files.isRegularFile(tokenFile), () -> "ready, but the application did not deploy (no "
                + tokenFile + "):\n" + tail(work.resolve("server.log")));
        String token = Files.readString(tokenFile).strip();
        Hookstile hookstile = Hookstile.at(base, token);
        String event = "evt_" + UUID.randomUUID().toString().replace("-", "");
        String secret = documented.get("HOOKSTILE_SOURCES_BILLING_SECRETS");
        EventOutcome outcome = hookstile.process(Deliveries.stripe("billing", secret, """
                {"id":"%s","object":"event","type":"invoice.paid","data":{"object":{"id":"in_example",\
                "object":"invoice","amount_paid":2000,"currency":"eur"}}}""".formatted(event)));

        // Completed at the first try: the handler's INSERT found its table, which the handler's jar migrated.
        assertEquals("completed", outcome.status(), outcome::toString);
        assertEquals(1, outcome.attempts(), outcome::toString);
        assertEquals(0, hookstile.forwardings("billing", event).size(),
                "no receipts service configured: no receipt scheduled");
    }

    /** Until {@code /health/ready} answers 200; a launcher that exits fails at once, with its log's end. */
    private void awaitReady(URI base, Path log) throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long patience = Long.getLong("hookstile.it.ready-timeout-seconds", 180);
        Instant deadline = Instant.now().plusSeconds(patience);
        while (Instant.now().isBefore(deadline)) {
            if (!server.isAlive()) {
                fail("./hookstile exited with " + server.exitValue() + " before it was ready:\n" + tail(log));
            }
            try {
                HttpResponse<Void> ready = http.send(HttpRequest.newBuilder(base.resolve("health/ready"))
                        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding());
                if (ready.statusCode() == 200) {
                    return;
                }
            } catch (IOException notListeningYet) {
                // keep waiting
            }
            Thread.sleep(500);
        }
        fail("not ready within " + patience + " s:\n" + tail(log));
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(" + log + " unreadable: " + e + ")";
        }
    }

    private static int freePort() throws IOException {
        try (var socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
