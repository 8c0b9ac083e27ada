package dev.hookstile.processing.boundary;

import dev.hookstile.it.Deployments;
import dev.hookstile.it.ItEnvironment;
import dev.hookstile.it.Webhooks;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static dev.hookstile.it.Webhooks.completed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A crash loses nothing that was acknowledged. Runs the server the way users do, with {@code ./hookstile}, holds
 * the handler so the acknowledged events are still in the broker or in flight, kills the JVM with SIGKILL, starts
 * it again on the same data directory and database, and counts every event's effect: exactly one each.
 */
class CrashRecoveryIT {

    private static final int EVENTS = 12;

    private final List<Process> servers = new ArrayList<>();

    @Test
    void eventsAcknowledgedBeforeACrashAreEachProcessedOnceAfterTheRestart() throws Exception {
        Path work = Files.createDirectories(ItEnvironment.dir().resolve("crash-" + UUID.randomUUID()));
        Path war = Deployments.exportTo(work.resolve("hookstile-it.war"));
        Path hold = Files.createFile(work.resolve("hold"));
        int port = freePort();
        var webhooks = new Webhooks("http://127.0.0.1:" + port + "/");

        Process first = start(work, war, hold, port, "first");
        awaitReady(webhooks, first);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < EVENTS; i++) {
            String id = "hold-" + UUID.randomUUID();
            HttpResponse<String> response = webhooks.send(webhooks.standard("it", id, "{\"type\":\"held\"}"));
            assertEquals(202, response.statusCode(), response.body());
            ids.add(id);
        }
        for (String id : ids) {
            assertEquals("absent", webhooks.recorded("it", id).getString("status"), "held, so not yet committed");
        }

        first.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        Files.delete(hold);
        Process second = start(work, war, hold, port, "second");
        awaitReady(webhooks, second);

        for (String id : ids) {
            var recorded = webhooks.awaitRecorded("it", id, completed(), Duration.ofSeconds(60));
            assertEquals(1, recorded.getInt("effects"), id + " was processed exactly once");
        }
        second.destroy();
        assertTrue(second.waitFor(60, TimeUnit.SECONDS), "SIGTERM stops the server");
    }

    @AfterEach
    void stopServers() throws InterruptedException {
        for (Process server : servers) {
            if (server.isAlive()) {
                server.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    private Process start(Path work, Path war, Path hold, int port, String name) throws IOException {
        var builder = new ProcessBuilder("bash", System.getProperty("hookstile.it.launcher"))
                .redirectErrorStream(true)
                .redirectOutput(work.resolve(name + ".log").toFile());
        var env = builder.environment();
        env.put("HOOKSTILE_PORT", String.valueOf(port));
        env.put("HOOKSTILE_DATA_DIR", work.resolve("data").toString());
        env.put("HOOKSTILE_WAR", war.toString());
        env.put("HOOKSTILE_JAVA_OPTS", "-Xms128m -Xmx512m");
        env.put("HOOKSTILE_IT_HOLD_FILE", hold.toString());
        env.remove("HOOKSTILE_BROKER_URL");
        if (ItEnvironment.databaseUrl().isEmpty()) {
            env.remove("HOOKSTILE_DB_URL");
        } else {
            env.put("HOOKSTILE_DB_URL", ItEnvironment.databaseUrl());
            env.put("HOOKSTILE_DB_USER", System.getProperty("hookstile.test.db.user"));
            env.put("HOOKSTILE_DB_PASSWORD", System.getProperty("hookstile.test.db.password"));
        }
        Process process = builder.start();
        servers.add(process);
        return process;
    }

    private static void awaitReady(Webhooks webhooks, Process server) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (System.nanoTime() < deadline) {
            if (!server.isAlive()) {
                fail("the server exited with " + server.exitValue() + " before it was ready");
            }
            try {
                if (webhooks.get("health/ready").statusCode() == 200) {
                    return;
                }
            } catch (RuntimeException notYetListening) {
                // keep polling
            }
            Webhooks.sleep(Duration.ofMillis(500));
        }
        fail("the server was not ready within 180 s");
    }

    private static int freePort() throws IOException {
        try (var socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
