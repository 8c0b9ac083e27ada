package dev.hookstile.faults;

import dev.hookstile.it.Await;
import dev.hookstile.it.Deployments;
import dev.hookstile.it.ItEnvironment;
import dev.hookstile.it.Ledger;
import dev.hookstile.it.ServerProcess;
import dev.hookstile.it.Webhooks;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A restart while a bulk replay's messages wait. After every start {@code LostReplays} queues again the events a
 * replay left {@code received} before it, while the consumers drain the very same backlog: a requeue that matched an
 * event the consumer had just finished turned it back to {@code received} and ran its handler a second time for one
 * replay (7 of 2,000 when an operator tried it). Here 2,000 completed events are replayed as one job while one slow
 * consumer session drains them, the server is stopped with {@code SIGTERM} with most of them waiting and started
 * again on the same database and broker: every event must run its handler exactly once more, and none be left
 * waiting.
 */
class ReplayRestartFaultIT {

    private static final int EVENTS = 2_000;

    @Test
    void aRestartDuringABulkReplayRunsEachReplayedEventExactlyOnceMore() throws Exception {
        Path work = ItEnvironment.faultWorkDirectory();
        // slow-: the test handler takes a few milliseconds, so one session drains the backlog slowly.
        String prefix = "slow-" + UUID.randomUUID() + "-";
        String type = "restarted." + prefix;
        Ledger ledger = new Ledger();
        try (var server = new ServerProcess(work, Deployments.exportTo(work.resolve("hookstile-it.war")))
                .with("HOOKSTILE_PROCESSING_CONCURRENCY", "1")
                // The whole replay queued before the stop, its messages waiting: no pacing in this scenario.
                .with("HOOKSTILE_REPLAY_MAX_WAITING", String.valueOf(2 * EVENTS))) {
            server.start();
            Webhooks webhooks = server.webhooks();
            for (int i = 0; i < EVENTS; i++) {
                HttpResponse<String> answer = webhooks.send(webhooks.standard("it", prefix + i,
                        "{\"type\":\"" + type + "\",\"n\":" + i + "}"));
                assertEquals(202, answer.statusCode(), answer.body());
            }
            Await.until(() -> count(ledger.statuses(prefix), "completed") == EVENTS, Duration.ofSeconds(300),
                    "all " + EVENTS + " processed once");

            HttpResponse<String> job = webhooks.send(webhooks.operator("api/replays")
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"source\":\"it\",\"status\":\"completed\",\"type\":\""
                            + type + "\",\"requestId\":\"" + prefix + "\"}")));
            assertEquals(202, job.statusCode(), job.body());
            String jobId = json(job.body()).getString("id");
            // Stopped once the job queued every event and the consumer ran some of them: the rest wait on the broker.
            Await.until(() -> "completed".equals(json(webhooks.send(webhooks.operator("api/replays/" + jobId)).body())
                            .getString("status"))
                    && count(ledger.statuses(prefix), "received") >= EVENTS / 2
                    && ledger.effects(prefix).values().stream().anyMatch(n -> n > 1), Duration.ofSeconds(120),
                    "the replay queued every event and the consumer began");
            assertTrue(server.stop(), "SIGTERM stops the server");
            long waiting = count(ledger.statuses(prefix), "received");
            server.start();

            Await.until(() -> ledger.statuses(prefix).values().stream().noneMatch(s -> s.equals("received")
                    || s.equals("retrying")), Duration.ofSeconds(300), "no replayed event left waiting");
            // LostReplays looks 10 s after the start and queues a second message for each event still waiting:
            // give those messages time to reach the consumer (each finds its event finished and runs nothing).
            Await.until(() -> waitingMessagesDrained(server), Duration.ofSeconds(120), "the second messages drained");
            Map<String, Integer> after = ledger.effects(prefix);
            Map<String, String> statuses = ledger.statuses(prefix);
            int twice = 0;
            for (int i = 0; i < EVENTS; i++) {
                String id = prefix + i;
                assertEquals("completed", statuses.get(id), id);
                int runs = after.getOrDefault(id, 0);
                assertTrue(runs <= 2, id + " ran its handler " + runs + " times for one original delivery and one replay");
                if (runs == 2) {
                    twice++;
                }
            }
            assertEquals(EVENTS, twice, "every replayed event ran its handler exactly once more");
            Ledger.report("SIGTERM during a bulk replay of " + EVENTS + " events, restarted",
                    new Ledger.Verdict(EVENTS, EVENTS, 0, 0, EVENTS, 0, 0, 0, 0),
                    waiting + " replayed events waited at the stop; each ran exactly once more after the restart");
            assertTrue(server.stop(), "SIGTERM stops the server");
        }
    }

    /** The broker's event queues are empty, as the operator API's overview counts them. */
    private static boolean waitingMessagesDrained(ServerProcess server) {
        HttpResponse<String> overview = server.webhooks().send(server.webhooks().operator("api/overview"));
        return overview.statusCode() == 200 && overview.body().contains("\"queue\":{\"depth\":0}");
    }

    private static JsonObject json(String body) {
        try (var reader = Json.createReader(new StringReader(body))) {
            return reader.readObject();
        }
    }

    private static long count(Map<String, String> statuses, String status) {
        return statuses.values().stream().filter(status::equals).count();
    }
}
