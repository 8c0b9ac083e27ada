package dev.hookstile.processing.boundary;

import dev.hookstile.it.Deployments;
import dev.hookstile.it.ItEnvironment;
import dev.hookstile.it.ServerProcess;
import dev.hookstile.it.Webhooks;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static dev.hookstile.it.Webhooks.completed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A crash loses nothing that was acknowledged. Runs the server the way users do, with {@code ./hookstile}, holds
 * the handler so the acknowledged events are still in the broker or in flight, kills the JVM with SIGKILL, starts
 * it again on the same data directory and database, and counts every event's effect: exactly one each.
 */
class CrashRecoveryIT {

    private static final int EVENTS = 12;

    @Test
    void eventsAcknowledgedBeforeACrashAreEachProcessedOnceAfterTheRestart() throws Exception {
        Path work = Files.createDirectories(ItEnvironment.dir().resolve("crash-" + UUID.randomUUID()));
        Path hold = Files.createFile(work.resolve("hold"));
        try (var server = new ServerProcess(work, Deployments.exportTo(work.resolve("hookstile-it.war")))) {
            server.with("HOOKSTILE_JAVA_OPTS", "-Xms128m -Xmx512m")
                    // The held handlers wait for the crash: longer than the ITs' 3 s handler deadline.
                    .with("HOOKSTILE_PROCESSING_HANDLER_TIMEOUT_SECONDS", "300")
                    .with("HOOKSTILE_IT_HOLD_FILE", hold.toString())
                    .start();
            Webhooks webhooks = server.webhooks();
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

            server.kill();
            // The transaction log is kept in the data directory, which a restart keeps (the runtime directory it
            // defaults to is emptied at every start), so a transaction in doubt at the crash is recovered.
            assertTrue(Files.isDirectory(work.resolve("data").resolve("tx").resolve("server").resolve("tx")),
                    "the transaction log is under the data directory");
            Files.delete(hold);
            server.start();

            for (String id : ids) {
                var recorded = webhooks.awaitRecorded("it", id, completed(), Duration.ofSeconds(60));
                assertEquals(1, recorded.getInt("effects"), id + " was processed exactly once");
            }
            assertTrue(server.stop(), "SIGTERM stops the server");
        }
    }
}
