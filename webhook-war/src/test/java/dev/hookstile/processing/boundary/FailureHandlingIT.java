package dev.hookstile.processing.boundary;

import dev.hookstile.it.DeployedHookstile;
import dev.hookstile.it.Webhooks;
import dev.hookstile.it.support.EffectRecorder;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Predicate;

import static dev.hookstile.it.Webhooks.completed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Failure handling on the real stack: transient failures retried, permanent ones dead at once, attempts running
 * out, replays. The test handler's effects are rows written in the processing transaction, so every failed attempt
 * must leave none. The source {@code it} allows 5 attempts (HOOKSTILE_SOURCES_IT_MAX_ATTEMPTS), the broker
 * redelivers after 200 ms, doubling.
 */
class FailureHandlingIT extends DeployedHookstile {

    private static final Duration PROCESSING = Duration.ofSeconds(60);

    @Test
    void transientFailureTwiceThenSuccessCompletesWithThreeAttemptsRecorded() {
        String id = "flaky2-" + UUID.randomUUID();

        post(id, "flaky");

        JsonObject recorded = webhooks.awaitRecorded("it", id, completed(), PROCESSING);
        assertEquals(3, recorded.getInt("attempts"));
        assertEquals(List.of("retrying", "retrying", "completed"), outcomes(recorded));
        assertEquals("transient", recorded.getJsonArray("history").getJsonObject(0).getString("failure"));
        assertEquals(1, recorded.getInt("effects"), "the failed attempts' effects rolled back");
        assertEquals(3, recorded.getJsonArray("effectAttempts").getInt(0));
    }

    @Test
    void theApiShowsHowLongEachTryTookFromItsStartToItsOutcome() {
        String flaky = "flaky2-" + UUID.randomUUID();
        String nap = "nap-" + UUID.randomUUID();

        post(flaky, "flaky");
        post(nap, "nap");

        webhooks.awaitRecorded("it", flaky, completed(), PROCESSING);
        webhooks.awaitRecorded("it", nap, completed(), PROCESSING);
        JsonArray history = detail(flaky).getJsonArray("history");
        assertEquals(List.of("retrying", "retrying", "completed"),
                history.stream().map(line -> line.asJsonObject().getString("outcome")).toList());
        for (var line : history) {
            JsonObject attempt = line.asJsonObject();
            assertTrue(attempt.containsKey("durationMillis"), "every try has a duration: " + attempt);
            assertTrue(attempt.getInt("durationMillis") >= 0, attempt.toString());
        }
        JsonObject napped = detail(nap).getJsonArray("history").getJsonObject(0);
        assertTrue(napped.getInt("durationMillis") >= EffectRecorder.NAP_MILLIS,
                "the try took at least its handler's " + EffectRecorder.NAP_MILLIS + " ms: " + napped);
    }

    private JsonObject detail(String id) {
        HttpResponse<String> response = webhooks.send(webhooks.operator("api/events/it/" + id).GET());
        assertEquals(200, response.statusCode(), response.body());
        return Webhooks.json(response.body());
    }

    @Test
    void sourceWithoutInProcessRetriesLeavesEachRetryToTheBrokersBackOff() {
        // gh is configured with HOOKSTILE_SOURCES_GH_RETRIES=0
        String id = "flaky2-" + UUID.randomUUID();
        HttpResponse<String> response = webhooks.send(webhooks.github(id, "flaky", "{}", Webhooks.GITHUB_SECRET));
        assertEquals(202, response.statusCode(), response.body());

        JsonObject recorded = webhooks.awaitRecorded("gh", id, completed(), PROCESSING);
        assertEquals(3, recorded.getInt("attempts"));
        assertEquals(List.of("retrying", "retrying", "completed"), outcomes(recorded));
        JsonArray history = recorded.getJsonArray("history");
        for (int i = 1; i < history.size(); i++) {
            long gap = at(history, i) - at(history, i - 1);
            assertTrue(gap >= 180, "attempt " + (i + 1) + " came from a broker redelivery: " + gap + " ms");
        }
        assertEquals(1, recorded.getInt("effects"));
    }

    @Test
    void permanentFailureIsDeadAfterExactlyOneAttempt() {
        String id = "broken-" + UUID.randomUUID();

        post(id, "broken");

        JsonObject recorded = webhooks.awaitRecorded("it", id, status("dead"), PROCESSING);
        Webhooks.sleep(Duration.ofSeconds(2));
        recorded = webhooks.recorded("it", id);
        assertEquals("dead", recorded.getString("status"), "consumed, not redelivered");
        assertEquals(1, recorded.getInt("attempts"));
        assertEquals(List.of("dead"), outcomes(recorded));
        assertEquals("permanent", recorded.getJsonArray("history").getJsonObject(0).getString("failure"));
        assertEquals(0, recorded.getInt("effects"));
    }

    @Test
    void transientFailureForeverIsDeadAfterTheConfiguredAttemptsWithBackOffBetweenThem() {
        String id = "forever-" + UUID.randomUUID();

        post(id, "forever");

        JsonObject recorded = webhooks.awaitRecorded("it", id, status("dead"), PROCESSING);
        assertEquals(5, recorded.getInt("attempts"));
        assertEquals(List.of("retrying", "retrying", "retrying", "retrying", "dead"), outcomes(recorded));
        JsonArray history = recorded.getJsonArray("history");
        for (int i = 1; i < history.size(); i++) {
            long gap = at(history, i) - at(history, i - 1);
            assertTrue(gap >= 40, "in-process retries wait at least delay - jitter: " + gap + " ms before attempt " + (i + 1));
        }
        long redeliveryGap = at(history, 3) - at(history, 2);
        assertTrue(redeliveryGap >= 180, "the broker's redelivery waits its back-off: " + redeliveryGap + " ms");
        assertEquals(0, recorded.getInt("effects"));
        Webhooks.sleep(Duration.ofSeconds(2));
        assertEquals(5, webhooks.recorded("it", id).getInt("attempts"), "nothing loops after dead");
    }

    @Test
    void replayingADeadEventAfterItsCauseIsFixedCompletesIt() {
        String id = deadAndFixed("replay");

        HttpResponse<String> replay = webhooks.send(webhooks.operator("api/events/it/" + id + "/replay")
                .POST(HttpRequest.BodyPublishers.noBody()));

        assertEquals(202, replay.statusCode(), replay.body());
        JsonObject recorded = webhooks.awaitRecorded("it", id, completed(), PROCESSING);
        assertEquals(List.of("dead", "completed"), outcomes(recorded));
        assertEquals(2, recorded.getInt("attempts"));
        assertEquals(1, recorded.getInt("effects"));
    }

    @Test
    void hungHandlersAreCutOffAtTheDeadlineAndDoNotStopOtherEvents() {
        // More hung events than consumer sessions (8): without a deadline they would hold every session for good.
        List<String> hung = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            String id = "hang-" + UUID.randomUUID();
            post(id, "hang");
            hung.add(id);
        }
        List<String> healthy = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            String id = "ok-" + UUID.randomUUID();
            post(id, "ok");
            healthy.add(id);
        }

        for (String id : healthy) {
            assertEquals(1, webhooks.awaitRecorded("it", id, completed(), Duration.ofSeconds(90)).getInt("effects"));
        }
        for (String id : hung) {
            JsonObject recorded = webhooks.awaitRecorded("it", id,
                    s -> List.of("retrying", "dead").contains(s.getString("status")), Duration.ofSeconds(90));
            assertEquals(0, recorded.getInt("effects"), "a cut-off try rolls back its effect");
            String error = recorded.getJsonArray("history").getJsonObject(0).getString("error", "");
            assertTrue(error.contains("did not finish within 3 s"), error);
        }
    }

    @Test
    void aReplayRetriedWithItsIdempotencyKeyRunsTheEventOnce() {
        String id = deadAndFixed("retried");
        String key = "replay-" + UUID.randomUUID();

        HttpResponse<String> first = replay(id, key);
        assertEquals(202, first.statusCode(), first.body());
        webhooks.awaitRecorded("it", id, completed(), PROCESSING);
        // The operator's client timed out and sends the same request again, after the replay already ran.
        HttpResponse<String> retried = replay(id, key);
        assertEquals(202, retried.statusCode(), retried.body());
        assertEquals(first.body(), retried.body(), "the same answer as the first request");
        Webhooks.sleep(Duration.ofSeconds(2));

        JsonObject recorded = webhooks.recorded("it", id);
        assertEquals(1, recorded.getInt("effects"), "replayed once, not twice");
        assertEquals(List.of("dead", "completed"), outcomes(recorded));

        String other = deadAndFixed("reused");
        HttpResponse<String> reused = replay(other, key);
        assertEquals(422, reused.statusCode(), reused.body());
        assertTrue(reused.body().contains("idempotency-key-reused"), reused.body());
        assertEquals("dead", webhooks.recorded("it", other).getString("status"), "the other event was not replayed");
        HttpResponse<String> invalid = replay(other, "k".repeat(256));
        assertEquals(400, invalid.statusCode(), invalid.body());
    }

    private HttpResponse<String> replay(String id, String idempotencyKey) {
        return webhooks.send(webhooks.operator("api/events/it/" + id + "/replay")
                .header("Idempotency-Key", idempotencyKey)
                .POST(HttpRequest.BodyPublishers.noBody()));
    }

    @Test
    void concurrentReplaysRunTheEventOncePerAcceptedReplay() throws Exception {
        String id = deadAndFixed("race");
        ExecutorService pool = Executors.newFixedThreadPool(10);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Integer>> statuses = new ArrayList<>();
        int queued = 0;
        try {
            for (int i = 0; i < 10; i++) {
                statuses.add(pool.submit(() -> {
                    start.await();
                    return webhooks.send(webhooks.operator("api/events/it/" + id + "/replay")
                            .POST(HttpRequest.BodyPublishers.noBody())).statusCode();
                }));
            }
            start.countDown();
            for (Future<Integer> status : statuses) {
                int code = status.get();
                assertTrue(code == 202 || code == 409, "answered " + code);
                queued += code == 202 ? 1 : 0;
            }
            assertTrue(queued >= 1, "at least one replay was queued");
        } finally {
            pool.shutdownNow();
        }

        webhooks.awaitRecorded("it", id, completed(), PROCESSING);
        Webhooks.sleep(Duration.ofSeconds(2));
        JsonObject recorded = webhooks.recorded("it", id);
        // A replay refused (409) while another is queued runs nothing; each accepted one runs exactly once. (Processing
        // is fast enough that a replay arriving after the first one completed is a new, legitimate replay.)
        assertEquals(queued, recorded.getInt("effects"), "the event ran once per accepted replay");
        assertEquals("completed", recorded.getString("status"));
    }

    @Test
    void bulkReplayOfDeadEventsIsAJobThatIsSafeToRequestTwice() {
        String type = "bulk-" + UUID.randomUUID();
        Instant since = Instant.now().minusSeconds(1);
        String first = deadAndFixed(type);
        String second = deadAndFixed(type);
        String request = "{\"source\":\"it\",\"status\":\"dead\",\"type\":\"" + type + "\",\"since\":\"" + since
                + "\",\"requestId\":\"" + UUID.randomUUID() + "\"}";

        HttpResponse<String> started = startReplay(request);
        assertEquals(202, started.statusCode(), started.body());
        String job = Webhooks.json(started.body()).getString("id");
        JsonObject done = awaitJob(job);

        assertEquals("completed", done.getString("status"), done.toString());
        assertEquals(2, done.getInt("matched"));
        assertEquals(2, done.getInt("queued"));
        webhooks.awaitRecorded("it", first, completed(), PROCESSING);
        webhooks.awaitRecorded("it", second, completed(), PROCESSING);
        HttpResponse<String> again = startReplay(request);
        assertEquals(job, Webhooks.json(again.body()).getString("id"), "the same request is the same job");
        Webhooks.sleep(Duration.ofSeconds(2));
        assertEquals(1, webhooks.recorded("it", first).getInt("effects"));
        assertEquals(1, webhooks.recorded("it", second).getInt("effects"));
    }

    @Test
    void replayWithoutTheOperatorTokenIsRefusedAndChangesNothing() {
        String id = deadAndFixed("unauthorised");

        HttpResponse<String> anonymous = webhooks.send(HttpRequest.newBuilder(
                java.net.URI.create(webhooks.base() + "api/events/it/" + id + "/replay"))
                .POST(HttpRequest.BodyPublishers.noBody()));
        HttpResponse<String> wrongToken = webhooks.send(HttpRequest.newBuilder(
                java.net.URI.create(webhooks.base() + "api/events/it/" + id + "/replay"))
                .header("Authorization", "Bearer not-the-token")
                .POST(HttpRequest.BodyPublishers.noBody()));

        assertEquals(401, anonymous.statusCode(), anonymous.body());
        assertEquals(401, wrongToken.statusCode(), wrongToken.body());
        Webhooks.sleep(Duration.ofSeconds(1));
        assertEquals("dead", webhooks.recorded("it", id).getString("status"));
    }

    /** A "broken-" event that went dead, with its cause then fixed. */
    private String deadAndFixed(String type) {
        String id = "broken-" + UUID.randomUUID();
        post(id, type);
        webhooks.awaitRecorded("it", id, status("dead"), PROCESSING);
        HttpResponse<String> fixed = webhooks.send(HttpRequest.newBuilder(
                java.net.URI.create(webhooks.base() + "it/events/it/" + id + "/fix"))
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertEquals(204, fixed.statusCode(), fixed.body());
        return id;
    }

    private void post(String id, String type) {
        HttpResponse<String> response = webhooks.send(webhooks.standard("it", id, "{\"type\":\"" + type + "\"}"));
        assertEquals(202, response.statusCode(), response.body());
    }

    private HttpResponse<String> startReplay(String request) {
        return webhooks.send(webhooks.operator("api/replays").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(request)));
    }

    private JsonObject awaitJob(String job) {
        long deadline = System.nanoTime() + PROCESSING.toNanos();
        JsonObject state;
        do {
            HttpResponse<String> response = webhooks.send(webhooks.operator("api/replays/" + job).GET());
            assertEquals(200, response.statusCode(), response.body());
            state = Webhooks.json(response.body());
            if (!"running".equals(state.getString("status"))) {
                return state;
            }
            Webhooks.sleep(Duration.ofMillis(200));
        } while (System.nanoTime() < deadline);
        return state;
    }

    private static Predicate<JsonObject> status(String status) {
        return state -> status.equals(state.getString("status"));
    }

    private static List<String> outcomes(JsonObject recorded) {
        return recorded.getJsonArray("history").stream()
                .map(line -> line.asJsonObject().getString("outcome")).toList();
    }

    private static long at(JsonArray history, int index) {
        return history.getJsonObject(index).getJsonNumber("atMillis").longValue();
    }
}
