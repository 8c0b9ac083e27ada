package dev.hookstile.processing.boundary;

import dev.hookstile.it.DeployedHookstile;
import dev.hookstile.it.Webhooks;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static dev.hookstile.it.Webhooks.completed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole path on Payara Micro with the broker and the database: ingest, durable hand-off, MDB, claim, handler,
 * commit. Effects are counted in the database, never inferred from responses.
 */
class ProcessingIT extends DeployedHookstile {

    private static final Duration PROCESSING = Duration.ofSeconds(30);

    @Test
    void eventPostedOnceIsProcessedOnce() {
        String id = "once-" + UUID.randomUUID();
        String body = "{\"type\":\"order.created\",\"data\":{\"n\":\"\\u00e9t\\u00e9 \u2713\"}}";

        HttpResponse<String> response = webhooks.send(webhooks.standard("it", id, body));

        assertEquals(202, response.statusCode(), response.body());
        JsonObject answer = Webhooks.json(response.body());
        assertEquals("accepted", answer.getString("status"));
        assertEquals("it", answer.getString("source"));
        assertEquals(id, answer.getString("eventId"));
        JsonObject recorded = webhooks.awaitRecorded("it", id, completed(), PROCESSING);
        assertEquals(1, recorded.getInt("effects"));
        assertEquals(1, recorded.getInt("attempts"));
        assertEquals("order.created", recorded.getString("type"));
        assertTrue(recorded.getBoolean("processed"));
        assertEquals(body, new String(Base64.getDecoder().decode(recorded.getString("payload")), StandardCharsets.UTF_8),
                "the payload is stored byte for byte");
        JsonObject headers = Webhooks.json(recorded.getString("headers"));
        assertEquals("[redacted]", headers.getString("webhook-signature"));
        assertEquals(id, headers.getString("webhook-id"));
    }

    @Test
    void sameEventPostedTwentyTimesConcurrentlyIsProcessedExactlyOnce() throws Exception {
        String id = "burst-" + UUID.randomUUID();
        String body = "{\"type\":\"burst\"}";
        var copies = new ArrayList<HttpRequest.Builder>();
        for (int i = 0; i < 20; i++) {
            copies.add(webhooks.standard("it", id, body));
        }
        int accepted = 0;
        for (HttpResponse<String> response : sendAtOnce(copies, 20)) {
            int status = response.statusCode();
            assertTrue(status == 202 || status == 200, "answered " + status + ": " + response.body());
            accepted += status == 202 ? 1 : 0;
        }
        // Concurrent copies wait for the first one's durable send and are answered duplicate: a retry storm must not
        // multiply the queue.
        assertEquals(1, accepted, "copies queued while the first was being queued");

        webhooks.awaitRecorded("it", id, completed(), PROCESSING);
        // Every delivery still in the queue must find the claim; give them time to prove otherwise.
        Webhooks.sleep(Duration.ofSeconds(3));
        assertEquals(1, webhooks.recorded("it", id).getInt("effects"), "the handler's effect was committed once");
    }

    /**
     * Events that arrive together travel to the queue together and are processed in one transaction; one whose
     * handler fails rolls that transaction back, and then every event of the message is tried alone.
     */
    @Test
    void eventsHandedOffTogetherAreEachProcessedOnceThoughOneOfThemFails() throws Exception {
        String run = UUID.randomUUID().toString();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 240; i++) {
            ids.add((i % 60 == 7 ? "fail-once-" : "together-") + run + "-" + i);
        }
        long messagesBefore = webhooks.queueMessages();
        var deliveries = new ArrayList<HttpRequest.Builder>();
        for (String id : ids) {
            deliveries.add(webhooks.standard("it", id, "{\"type\":\"together\"}"));
        }
        for (HttpResponse<String> response : sendAtOnce(deliveries, 16)) {
            assertEquals(202, response.statusCode(), response.body());
        }
        long messages = webhooks.queueMessages() - messagesBefore;
        assertTrue(messages < ids.size(), ids.size() + " events went in " + messages + " messages: none together");

        for (String id : ids) {
            JsonObject recorded = webhooks.awaitRecorded("it", id, completed(), PROCESSING);
            assertEquals(1, recorded.getInt("effects"), id);
            assertEquals(id.startsWith("fail-once-") ? 2 : 1, recorded.getInt("attempts"), id);
        }
        Webhooks.sleep(Duration.ofSeconds(2));
        for (String id : ids) {
            assertEquals(1, webhooks.recorded("it", id).getInt("effects"), "processed once: " + id);
        }
    }

    @Test
    void handlerFailureRollsBackItsWorkAndTheRedeliveryProcessesTheEvent() {
        String id = "fail-once-" + UUID.randomUUID();

        assertEquals(202, webhooks.send(webhooks.standard("it", id, "{\"type\":\"flaky\"}")).statusCode());

        JsonObject recorded = webhooks.awaitRecorded("it", id, completed(), PROCESSING);
        assertEquals(1, recorded.getInt("effects"), "the effect of the failed attempt was rolled back");
        assertEquals(2, recorded.getJsonArray("effectAttempts").getInt(0), "the surviving effect is the second attempt's");
        assertEquals(2, recorded.getInt("attempts"));
    }

    @Test
    void redeliveryOfAProcessedEventIsAnsweredDuplicate() {
        String id = "again-" + UUID.randomUUID();
        var delivery = webhooks.standard("it", id, "{\"type\":\"again\"}");
        assertEquals(202, webhooks.send(delivery).statusCode());
        webhooks.awaitRecorded("it", id, completed(), PROCESSING);

        HttpResponse<String> redelivery = webhooks.send(webhooks.standard("it", id, "{\"type\":\"again\"}"));

        assertEquals(200, redelivery.statusCode(), redelivery.body());
        assertEquals("duplicate", Webhooks.json(redelivery.body()).getString("status"));
        Webhooks.sleep(Duration.ofSeconds(1));
        assertEquals(1, webhooks.recorded("it", id).getInt("effects"));
    }

    @Test
    void signedGitHubDeliveryIsAcceptedUnderEitherRotatedSecretAndProcessed() {
        String delivery = UUID.randomUUID().toString();
        String body = "{\"zen\":\"Design for failure.\",\"hook_id\":42}";

        HttpResponse<String> response = webhooks.send(webhooks.github(delivery, "ping", body, Webhooks.GITHUB_SECRET));
        HttpResponse<String> withOldSecret = webhooks.send(
                webhooks.github(UUID.randomUUID().toString(), "ping", body, "it-github-old-secret"));

        assertEquals(202, response.statusCode(), response.body());
        assertEquals(202, withOldSecret.statusCode(), withOldSecret.body());
        JsonObject recorded = webhooks.awaitRecorded("gh", delivery, completed(), PROCESSING);
        assertEquals("ping", recorded.getString("type"));
        assertEquals("github", recorded.getString("provider"));
        assertEquals(1, recorded.getInt("effects"));
    }

    @Test
    void stripeEventSignedWithTheOfficialSdkIsAcceptedAndProcessed() {
        String id = "evt_" + UUID.randomUUID().toString().replace("-", "");
        String body = "{\"id\":\"" + id + "\",\"object\":\"event\",\"type\":\"invoice.paid\",\"data\":{\"object\":{\"id\":\"in_1\"}}}";

        HttpResponse<String> response = webhooks.send(webhooks.stripe(body));

        assertEquals(202, response.statusCode(), response.body());
        JsonObject recorded = webhooks.awaitRecorded("pay", id, completed(), PROCESSING);
        assertEquals("invoice.paid", recorded.getString("type"));
        assertEquals(1, recorded.getInt("effects"));
        assertEquals(200, webhooks.send(webhooks.stripe(body)).statusCode(), "a redelivery is a duplicate");
    }

    @Test
    void eventNoHandlerSelectsIsRecordedIgnoredWithoutRunningAnything() {
        String id = "quiet-" + UUID.randomUUID();

        assertEquals(202, webhooks.send(webhooks.standard("quiet", id, "{\"type\":\"nobody.cares\"}")).statusCode());

        // The example handler is not deployed unless switched on, so it does not select every event.
        JsonObject recorded = webhooks.awaitRecorded("quiet", id, state -> "ignored".equals(state.getString("status")),
                PROCESSING);
        assertEquals(1, recorded.getInt("attempts"));
        assertEquals(0, recorded.getInt("effects"));
        assertEquals("ignored", recorded.getJsonArray("history").getJsonObject(0).getString("outcome"));
    }

    /**
     * A captured GitHub delivery sent again under a fresh {@code X-GitHub-Delivery} (the id is not signed, the body
     * is): the source {@code ghbody} deduplicates on the body for an hour, {@code gh} on the id alone.
     */
    @Test
    void signedBodyResentUnderAFreshDeliveryIdIsProcessedOnceWhereTheSourceDeduplicatesBodies() {
        String body = "{\"action\":\"opened\",\"number\":" + System.nanoTime() + "}";
        String original = "body-" + UUID.randomUUID();
        String replayed = "body-" + UUID.randomUUID();

        assertEquals(202, webhooks.send(webhooks.github("ghbody", original, "issues", body, Webhooks.GITHUB_SECRET))
                .statusCode());
        webhooks.awaitRecorded("ghbody", original, completed(), PROCESSING);
        HttpResponse<String> resent = webhooks.send(
                webhooks.github("ghbody", replayed, "issues", body, Webhooks.GITHUB_SECRET));

        // Accepted like any new id (ingest does not look at bodies), then recorded as ignored with the reason.
        assertEquals(202, resent.statusCode(), resent.body());
        JsonObject repeat = webhooks.awaitRecorded("ghbody", replayed,
                state -> "ignored".equals(state.getString("status")), PROCESSING);
        assertEquals(0, repeat.getInt("effects"), "the handlers did not run for the repeated body");
        String reason = repeat.getJsonArray("history").getJsonObject(0).getString("error");
        assertTrue(reason.contains(original), reason);
        assertEquals(1, webhooks.recorded("ghbody", original).getInt("effects"));

        // An operator's replay of the repeat runs it: the operator asked for it.
        HttpResponse<String> replay = webhooks.send(webhooks.operator("api/events/ghbody/" + replayed + "/replay")
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertEquals(202, replay.statusCode(), replay.body());
        assertEquals(1, webhooks.awaitRecorded("ghbody", replayed, completed(), PROCESSING).getInt("effects"));

        // The same two deliveries to a source without the option: two events, each processed.
        String other = "body-" + UUID.randomUUID();
        assertEquals(202, webhooks.send(webhooks.github("gh", original, "issues", body, Webhooks.GITHUB_SECRET))
                .statusCode());
        assertEquals(202, webhooks.send(webhooks.github("gh", other, "issues", body, Webhooks.GITHUB_SECRET))
                .statusCode());
        assertEquals(1, webhooks.awaitRecorded("gh", original, completed(), PROCESSING).getInt("effects"));
        assertEquals(1, webhooks.awaitRecorded("gh", other, completed(), PROCESSING).getInt("effects"));
    }

    @Test
    void oneBodyUnderTenDeliveryIdsAtOnceRunsTheHandlersOnce() throws Exception {
        String body = "{\"action\":\"closed\",\"number\":" + System.nanoTime() + "}";
        List<String> ids = new ArrayList<>();
        var deliveries = new ArrayList<HttpRequest.Builder>();
        for (int i = 0; i < 10; i++) {
            String id = "storm-body-" + UUID.randomUUID();
            ids.add(id);
            deliveries.add(webhooks.github("ghbody", id, "issues", body, Webhooks.GITHUB_SECRET));
        }
        for (HttpResponse<String> response : sendAtOnce(deliveries, 10)) {
            assertEquals(202, response.statusCode(), response.body());
        }

        int completed = 0;
        int effects = 0;
        for (String id : ids) {
            JsonObject state = webhooks.awaitRecorded("ghbody", id,
                    s -> "completed".equals(s.getString("status")) || "ignored".equals(s.getString("status")),
                    PROCESSING);
            completed += "completed".equals(state.getString("status")) ? 1 : 0;
            effects += state.getInt("effects");
        }
        assertEquals(1, completed, "one of the ten ids owns the body");
        assertEquals(1, effects, "the handler's effect was committed once for the ten copies");
    }

    /** Sends the requests from {@code threads} threads released at the same moment; the answers in order. */
    private List<HttpResponse<String>> sendAtOnce(List<HttpRequest.Builder> requests, int threads) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<HttpResponse<String>>> pending = new ArrayList<>();
            for (HttpRequest.Builder request : requests) {
                pending.add(pool.submit(() -> {
                    start.await();
                    return webhooks.send(request);
                }));
            }
            start.countDown();
            List<HttpResponse<String>> responses = new ArrayList<>();
            for (Future<HttpResponse<String>> response : pending) {
                responses.add(response.get());
            }
            return responses;
        } finally {
            pool.shutdownNow();
        }
    }
}
