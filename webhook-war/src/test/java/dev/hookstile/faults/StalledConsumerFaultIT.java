package dev.hookstile.faults;

import dev.hookstile.it.Deployments;
import dev.hookstile.it.ItEnvironment;
import dev.hookstile.it.Ledger;
import dev.hookstile.it.ServerProcess;
import dev.hookstile.it.Webhooks;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A queue consumer that stops receiving while its broker connection stays open, as one did after an external broker
 * was restarted under load (docs/reliability.md): the broker holds what it sent that consumer until its connection
 * closes, so without help those events wait for a restart of Hookstile. They must be processed, once, without one.
 */
class StalledConsumerFaultIT {

    private static final int EVENTS = 200;
    private static final int STALL_SECONDS = 10;

    @Test
    void aConsumerThatStopsReceivingIsReconnectedAndWhatTheBrokerHeldForItIsProcessedOnce() throws Exception {
        Path work = ItEnvironment.faultWorkDirectory();
        String run = UUID.randomUUID().toString();
        String prefix = "stall-" + run + "-";
        try (var server = new ServerProcess(work, Deployments.exportTo(work.resolve("hookstile-it.war")))) {
            server.with("HOOKSTILE_PROCESSING_STALL_SECONDS", String.valueOf(STALL_SECONDS)).start();
            Webhooks webhooks = server.webhooks();
            Ledger ledger = new Ledger();

            String detach = "detach-" + run;
            assertEquals(202, webhooks.send(webhooks.standard("it", detach, "{\"type\":\"detach\"}")).statusCode());
            webhooks.awaitRecorded("it", detach, Webhooks.completed(), Duration.ofSeconds(30));

            Map<String, Integer> answers = new HashMap<>();
            for (int i = 0; i < EVENTS; i++) {
                String id = prefix + i;
                answers.put(id, webhooks.send(webhooks.standard("it", id, "{\"type\":\"stall\"}")).statusCode());
            }
            Webhooks.sleep(Duration.ofSeconds(3));
            int processedWhileStalled = ledger.effects(prefix).size();

            Ledger.Verdict verdict = ledger.awaitSettled(answers, prefix, Duration.ofSeconds(STALL_SECONDS * 6L));
            Ledger.report("queue consumer stops receiving, connection open", verdict,
                    processedWhileStalled + " processed in the 3 s after sending, before the stall window of "
                            + STALL_SECONDS + " s");
            HttpResponse<String> live = webhooks.server().get("health/live");
            HttpResponse<String> metrics = webhooks.server().get("metrics");

            assertEquals(EVENTS, verdict.acked(), verdict.toString());
            assertEquals(0, processedWhileStalled, "the consumer had stopped receiving: nothing is processed at first");
            assertEquals(0, verdict.lost(), "acknowledged but never processed: " + verdict);
            assertTrue(verdict.exactlyOnce(), verdict.toString());
            assertEquals(200, live.statusCode(), live.body());
            JsonObject consumers = Webhooks.json(live.body()).getJsonArray("checks").stream()
                    .map(check -> check.asJsonObject())
                    .filter(check -> check.getString("name").equals("consumers"))
                    .findFirst().orElseThrow();
            // Payara writes health data values as strings.
            String reconnects = consumers.getJsonObject("data").get("reconnectedWhenStalled").toString();
            assertTrue(Long.parseLong(reconnects.replace("\"", "")) >= 1,
                    "the stalled consumer was reconnected: " + consumers);
            assertTrue(metrics.body().lines().anyMatch(line -> line.startsWith("hookstile_consumers_reconnected_total")
                    && line.contains("queue=\"hookstile.events\"")
                    && Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)) >= 1), metrics.body());
        }
    }
}
