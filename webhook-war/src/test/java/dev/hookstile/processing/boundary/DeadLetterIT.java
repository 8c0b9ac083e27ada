package dev.hookstile.processing.boundary;

import dev.hookstile.it.DatabaseProxy;
import dev.hookstile.it.Deployments;
import dev.hookstile.it.ItEnvironment;
import dev.hookstile.it.ServerProcess;
import dev.hookstile.it.Webhooks;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * With a redelivery limit, an event whose every delivery fails while the database is down cannot even be recorded
 * dead: the broker moves it to its dead letter queue. It must not stay there, where no operator looks: once the
 * database is back it is recorded {@code dead}, with why, and never processed behind the operator's back.
 */
class DeadLetterIT {

    private static final int EVENTS = 10;

    @Test
    void eventsTheBrokerGaveUpOnWhileTheDatabaseWasDownEndDeadNotLost() throws Exception {
        Path work = ItEnvironment.faultWorkDirectory();
        try (var proxy = new DatabaseProxy(ItEnvironment.databaseUrl());
             var server = new ServerProcess(work, Deployments.exportTo(work.resolve("hookstile-it.war")))) {
            server.database(proxy.url(ItEnvironment.databaseUrl()))
                    .with("HOOKSTILE_PROCESSING_MAX_REDELIVERIES", "1")
                    .with("HOOKSTILE_PROCESSING_REDELIVERY_DELAY_MS", "200")
                    .with("HOOKSTILE_PROCESSING_MAX_REDELIVERY_DELAY_MS", "2000")
                    .start();
            Webhooks webhooks = server.webhooks();

            proxy.stop();
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < EVENTS; i++) {
                String id = "dlq-" + UUID.randomUUID();
                HttpResponse<String> response = webhooks.send(webhooks.standard("it", id, "{\"type\":\"dlq\"}"));
                assertEquals(202, response.statusCode(), "the broker holds it while the database is down: "
                        + response.body());
                ids.add(id);
            }
            // Two deliveries each, 200 ms apart, neither able to record anything: both used up long before this.
            Webhooks.sleep(Duration.ofSeconds(6));
            // The operator API, meanwhile: the database's trouble is a 503 with problem details, on every endpoint.
            for (String path : List.of("api/events/it/" + ids.get(0), "api/events?source=it", "api/sources")) {
                HttpResponse<String> answer = webhooks.send(webhooks.operator(path));
                assertEquals(503, answer.statusCode(), path + ": " + answer.body());
                assertEquals("application/problem+json",
                        answer.headers().firstValue("Content-Type").orElse(""), path);
                assertTrue(answer.body().contains("database-unavailable"), path + ": " + answer.body());
                assertTrue(answer.headers().firstValue("Retry-After").isPresent(), path);
            }
            proxy.restore();

            for (String id : ids) {
                JsonObject state = webhooks.awaitRecorded("it", id, s -> "dead".equals(s.getString("status")),
                        Duration.ofSeconds(60));
                assertEquals(0, state.getInt("effects"), id + " was never processed");
                JsonObject line = state.getJsonArray("history").getJsonObject(0);
                assertEquals("dead", line.getString("outcome"));
                String error = line.getString("error", "");
                assertTrue(error.contains("broker gave up"), id + " says why it is dead: " + error);
            }
        }
    }
}
