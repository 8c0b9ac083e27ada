package dev.hookstile.processing.boundary;

import dev.hookstile.it.DeployedHookstile;
import dev.hookstile.it.Webhooks;
import dev.hookstile.queue.boundary.EventMessage;
import dev.hookstile.queue.boundary.EventQueue;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static dev.hookstile.it.Webhooks.completed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Ordering by key: the source {@code ord} (webhook-war/pom.xml) orders its events by {@code /customer}; its handler
 * ({@code OrderRecorder}) takes 40 ms and records when each run started and ended, and what it was told.
 */
class OrderingIT extends DeployedHookstile {

    private static final Duration PROCESSED = Duration.ofSeconds(60);

    @Test
    void eventsWithOneKeyAreProcessedInArrivalOrderOneAtATimeAndOtherKeysInParallel() throws Exception {
        List<String> keys = keysOnDifferentQueues(3);
        int perKey = 10;
        ExecutorService senders = Executors.newFixedThreadPool(keys.size());
        try {
            var sent = new ArrayList<Future<List<String>>>();
            for (String key : keys) {
                // One sender per key, each waiting for its answer before the next: the key's arrival order.
                sent.add(senders.submit(() -> {
                    var ids = new ArrayList<String>();
                    for (int i = 0; i < perKey; i++) {
                        ids.add(send(key, key + "-" + i));
                    }
                    return ids;
                }));
            }
            for (int k = 0; k < keys.size(); k++) {
                List<String> ids = sent.get(k).get();
                for (String id : ids) {
                    webhooks.awaitRecorded("ord", id, completed(), PROCESSED);
                }
                List<JsonObject> runs = runs(keys.get(k));
                assertEquals(ids, runs.stream().map(run -> run.getString("eventId")).toList(),
                        "processed in the order they were acknowledged");
                for (int i = 1; i < runs.size(); i++) {
                    assertTrue(runs.get(i).getJsonNumber("startedMicros").longValue()
                                    >= runs.get(i - 1).getJsonNumber("endedMicros").longValue(),
                            "one at a time: " + runs.get(i - 1) + " then " + runs.get(i));
                }
                runs.forEach(run -> assertFalse(run.getBoolean("older"), run.toString()));
            }
        } finally {
            senders.shutdownNow();
        }
        assertTrue(overlapping(runs(keys.get(0)), runs(keys.get(1)))
                        || overlapping(runs(keys.get(0)), runs(keys.get(2)))
                        || overlapping(runs(keys.get(1)), runs(keys.get(2))),
                "events with keys on different queues were processed in parallel");
    }

    @Test
    void anEventThatFailsIsRetriedBeforeTheEventsBehindItWithItsKey() {
        String key = keysOnDifferentQueues(1).get(0);
        var ids = new ArrayList<String>();
        ids.add(send(key, key + "-fail-once-0"));
        for (int i = 1; i < 5; i++) {
            ids.add(send(key, key + "-" + i));
        }
        for (String id : ids) {
            webhooks.awaitRecorded("ord", id, completed(), PROCESSED);
        }

        List<JsonObject> runs = runs(key);
        assertEquals(ids, runs.stream().map(run -> run.getString("eventId")).toList(),
                "the failed event's retry came first");
        assertEquals(2, runs.get(0).getInt("attempt"));
    }

    @Test
    void aHandlerCanTellAnEventOlderThanTheLastProcessedForItsKey() {
        String key = keysOnDifferentQueues(1).get(0);
        String first = send(key, key + "-first");
        Webhooks.sleep(Duration.ofMillis(20));
        String second = send(key, key + "-second");
        webhooks.awaitRecorded("ord", first, completed(), PROCESSED);
        webhooks.awaitRecorded("ord", second, completed(), PROCESSED);

        HttpResponse<String> replay = webhooks.send(webhooks.operator("api/events/ord/" + first + "/replay")
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertEquals(202, replay.statusCode(), replay.body());
        waitForRuns(key, 3);

        List<JsonObject> runs = runs(key);
        assertEquals(List.of(first, second, first), runs.stream().map(run -> run.getString("eventId")).toList());
        assertEquals(List.of(false, false, true), runs.stream().map(run -> run.getBoolean("older")).toList(),
                "only the replay of the first event is older than the last processed");
    }

    private String send(String key, String id) {
        String body = "{\"type\":\"customer.updated\",\"customer\":\"" + key + "\"}";
        HttpResponse<String> answer = webhooks.send(webhooks.standard("ord", id, body));
        assertEquals(202, answer.statusCode(), answer.body());
        return id;
    }

    private List<JsonObject> runs(String key) {
        HttpResponse<String> response = webhooks.get("it/order/" + key);
        assertEquals(200, response.statusCode(), response.body());
        return Webhooks.jsonArray(response.body()).getValuesAs(JsonObject.class);
    }

    private void waitForRuns(String key, int count) {
        Instant deadline = Instant.now().plus(PROCESSED);
        while (runs(key).size() < count && Instant.now().isBefore(deadline)) {
            Webhooks.sleep(Duration.ofMillis(100));
        }
    }

    private static boolean overlapping(List<JsonObject> a, List<JsonObject> b) {
        for (JsonObject x : a) {
            for (JsonObject y : b) {
                long xs = x.getJsonNumber("startedMicros").longValue();
                long xe = x.getJsonNumber("endedMicros").longValue();
                long ys = y.getJsonNumber("startedMicros").longValue();
                long ye = y.getJsonNumber("endedMicros").longValue();
                if (xs < ye && ys < xe) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Fresh keys for this test, each of which the hand-off sends to a different ordered queue. */
    private static List<String> keysOnDifferentQueues(int count) {
        String run = UUID.randomUUID().toString().substring(0, 8);
        var keys = new ArrayList<String>();
        var queues = new HashSet<String>();
        for (int i = 0; keys.size() < count; i++) {
            String key = "cus-" + run + "-" + i;
            String queue = EventQueue.queueOf(new EventMessage.Outgoing("ord", "standard-webhooks", "x", "t", key,
                    Instant.EPOCH, "{}", new byte[0]));
            if (queues.add(queue)) {
                keys.add(key);
            }
        }
        return keys;
    }
}
