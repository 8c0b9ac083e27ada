package dev.hookstile.processing.boundary;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.hookstile.it.DeployedHookstile;
import dev.hookstile.it.Webhooks;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import jakarta.json.JsonObject;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static dev.hookstile.it.Webhooks.completed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Forwarding through the outbox to an HTTP destination (the source {@code fwd} in webhook-war/pom.xml), received by
 * a server this test runs. Its answer depends on the event id: {@code ok-} 200, {@code flaky-} 503 once then 200,
 * {@code bad-} 400. The signature is checked here by hand, from the Standard Webhooks specification.
 */
class OutboxIT extends DeployedHookstile {

    private static final int PORT = 18771;
    private static final byte[] DESTINATION_SECRET = Base64.getDecoder()
            .decode("dGVzdC1kZXN0aW5hdGlvbi1zZWNyZXQtMzItYnl0ZXMh");
    private static final Duration DELIVERY = Duration.ofSeconds(30);

    private static HttpServer receiver;
    private static final Map<String, List<Received>> received = new ConcurrentHashMap<>();
    /** Every forwarding's key in the order it arrived. */
    private static final List<String> arrivals = new CopyOnWriteArrayList<>();
    /** When each forwarding arrived, by key, in nanoseconds of this JVM's clock. */
    private static final Map<String, Long> arrivedAt = new ConcurrentHashMap<>();
    /** {@code fixable-} ids the receiver accepts from now on (it refuses them with 400 until then). */
    private static final Set<String> fixed = ConcurrentHashMap.newKeySet();
    /** What handlers of the source {@code fx} posted through the Outbox API, by Idempotency-Key. */
    private static final Map<String, List<Received>> effects = new ConcurrentHashMap<>();
    /** Requests to the destination of {@code fwddown}, which answers every one with 503. */
    private static final AtomicInteger requestsToDown = new AtomicInteger();

    record Received(Map<String, List<String>> headers, byte[] body) {
        String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().get(0)).findFirst().orElse(null);
        }
    }

    @BeforeAll
    static void startReceiver() throws IOException {
        receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", PORT), 0);
        receiver.createContext("/hooks", OutboxIT::receive);
        receiver.createContext("/effects", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            effects.computeIfAbsent(exchange.getRequestHeaders().getFirst("Idempotency-Key"),
                    k -> new CopyOnWriteArrayList<>()).add(new Received(Map.copyOf(exchange.getRequestHeaders()), body));
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        receiver.createContext("/down", exchange -> {
            exchange.getRequestBody().readAllBytes();
            requestsToDown.incrementAndGet();
            exchange.sendResponseHeaders(503, -1);
            exchange.close();
        });
        receiver.start();
    }

    @AfterAll
    static void stopReceiver() {
        receiver.stop(0);
    }

    private static void receive(HttpExchange exchange) throws IOException {
        byte[] body = exchange.getRequestBody().readAllBytes();
        String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
        List<Received> copies = received.computeIfAbsent(key, k -> new CopyOnWriteArrayList<>());
        copies.add(new Received(Map.copyOf(exchange.getRequestHeaders()), body));
        arrivals.add(key);
        arrivedAt.putIfAbsent(key, System.nanoTime());
        String eventId = key.substring(key.indexOf(':') + 1);
        int status = eventId.startsWith("bad-") || eventId.startsWith("fixable-") && !fixed.contains(eventId) ? 400
                : eventId.startsWith("flaky-") && copies.size() == 1 ? 503 : 200;
        exchange.sendResponseHeaders(status, -1);
        exchange.close();
    }

    @Test
    void aProcessedEventArrivesOnceWithAStableKeyAndAValidSignature() {
        String id = "ok-" + UUID.randomUUID();
        String body = "{\"type\":\"invoice.paid\",\"n\":" + System.nanoTime() + "}";

        assertEquals(202, webhooks.send(webhooks.standard("fwd", id, body)).statusCode());

        List<Received> copies = await("fwd:" + id, 1);
        webhooks.awaitRecorded("fwd", id, completed(), DELIVERY);
        Webhooks.sleep(Duration.ofSeconds(2));
        assertEquals(1, received.get("fwd:" + id).size(), "delivered, so sent once");
        Received request = copies.get(0);
        assertEquals(body, new String(request.body(), StandardCharsets.UTF_8), "the original body, byte for byte");
        assertEquals("fwd:" + id, request.header("webhook-id"));
        assertEquals("fwd", request.header("X-Hookstile-Source"));
        assertEquals("invoice.paid", request.header("X-Hookstile-Event-Type"));
        assertTrue(signedBy(DESTINATION_SECRET, request), "webhook-signature verifies: " + request.header("webhook-signature"));
    }

    @Test
    void aDestinationGivenASigningKeyGetsAV1aSignatureItsPublicKeyVerifiesAndNoHmac() {
        String id = "ok-" + UUID.randomUUID();
        String body = "{\"type\":\"invoice.paid\",\"n\":" + System.nanoTime() + "}";

        assertEquals(202, webhooks.send(webhooks.standard("fwdkey", id, body)).statusCode());

        Received request = await("fwdkey:" + id, 1).get(0);
        String signature = request.header("webhook-signature");
        assertTrue(signature.startsWith("v1a,") && !signature.contains(" "), "one v1a entry: " + signature);
        var publicKey = dev.hookstile.source.Ed25519.publicKey(
                dev.hookstile.test.Deliveries.publicKeyOf(Webhooks.STANDARD_SIGNING_KEY));
        byte[] signed = (request.header("webhook-id") + "." + request.header("webhook-timestamp") + ".")
                .getBytes(StandardCharsets.UTF_8);
        assertTrue(dev.hookstile.source.Ed25519.verify(publicKey, signed, request.body(),
                Base64.getDecoder().decode(signature.substring(4))), "verifies with the public key: " + signature);
        assertTrue(!dev.hookstile.source.Ed25519.verify(publicKey, signed, (body + " ").getBytes(StandardCharsets.UTF_8),
                Base64.getDecoder().decode(signature.substring(4))), "and not for another body");
    }

    @Test
    void onlyEventsWhoseBodyContainsTheDestinationsFilterAreForwardedTheOthersSayWhyOnTheirPage() {
        String live = "ok-live-" + UUID.randomUUID();
        String test = "ok-test-" + UUID.randomUUID();
        assertEquals(202, webhooks.send(webhooks.standard("fwdlive", test,
                "{\"type\":\"invoice.paid\",\"data\":{\"object\":{\"livemode\":false}}}")).statusCode());
        assertEquals(202, webhooks.send(webhooks.standard("fwdlive", live,
                "{\"type\":\"invoice.paid\",\"data\":{\"object\":{\"livemode\":true,\"id\":\"in_1\"}}}")).statusCode());

        await("fwdlive:" + live, 1);
        webhooks.awaitRecorded("fwdlive", live, completed(), DELIVERY);
        // No handler takes this source's events: forwarded counts as handled, the other one is ignored.
        webhooks.awaitRecorded("fwdlive", test, state -> "ignored".equals(state.getString("status")), DELIVERY);
        JsonObject kept = awaitForwarding("fwdlive", test, "filtered");
        assertTrue(kept.getString("lastError").contains("HOOKSTILE_SOURCES_FWDLIVE_DESTINATION_FILTER"), kept.toString());
        assertEquals(0, kept.getInt("attempts"));
        // Recorded filtered in the try's transaction, never due: the relay, which sent the live one, never takes it.
        assertFalse(received.containsKey("fwdlive:" + test), "never sent");
        HttpResponse<String> replay = webhooks.send(webhooks.operator("api/forwardings/" + kept.getJsonNumber("id")
                + "/replay").POST(java.net.http.HttpRequest.BodyPublishers.noBody()));
        assertEquals(409, replay.statusCode(), replay.body());
        assertTrue(replay.body().contains("not-forwarded"), replay.body());
    }

    @Test
    void aPausedDestinationHoldsItsForwardingsUntilResumedAndThenGetsTheOldestFirst() {
        JsonObject paused = destination("fwdhold", "pause");
        assertTrue(paused.getBoolean("paused"), paused.toString());
        assertTrue(destination("fwdhold", "pause").getBoolean("paused"), "pausing again changes nothing");
        List<String> ids = List.of("held-" + UUID.randomUUID(), "held-" + UUID.randomUUID(), "held-" + UUID.randomUUID());
        for (String id : ids) {
            assertEquals(202, webhooks.send(webhooks.standard("fwdhold", id, "{\"type\":\"invoice.paid\"}")).statusCode());
            webhooks.awaitRecorded("fwdhold", id, completed(), DELIVERY);
        }
        // A forwarding of another source, due after the held ones, arrives: the relay has walked past them.
        String other = "ok-" + UUID.randomUUID();
        assertEquals(202, webhooks.send(webhooks.standard("fwd", other, "{\"type\":\"invoice.paid\"}")).statusCode());
        await("fwd:" + other, 1);

        assertTrue(ids.stream().noneMatch(id -> received.containsKey("fwdhold:" + id)), "held, not sent");
        JsonObject listed = operatorJson("api/destinations", 200).getJsonArray("destinations")
                .getValuesAs(JsonObject.class).stream().filter(d -> d.getString("source").equals("fwdhold")).findFirst()
                .orElseThrow();
        assertTrue(listed.getBoolean("paused") && listed.getInt("pending") >= 3, "paused, holding them: " + listed);
        for (String id : ids) {
            JsonObject held = awaitForwarding("fwdhold", id, "pending");
            assertEquals(0, held.getInt("attempts"), "a pause is no attempt");
        }

        assertFalse(destination("fwdhold", "resume").getBoolean("paused"));
        for (String id : ids) {
            await("fwdhold:" + id, 1);
        }
        assertEquals("fwdhold:" + ids.get(0), arrivals.stream().filter(key -> key.startsWith("fwdhold:")
                && ids.contains(key.substring("fwdhold:".length()))).findFirst().orElseThrow(), "the oldest first");
        HttpResponse<String> unknown = webhooks.send(webhooks.operator("api/destinations/nosuchsource/pause")
                .POST(java.net.http.HttpRequest.BodyPublishers.noBody()));
        assertEquals(404, unknown.statusCode(), unknown.body());
    }

    @Test
    void aPacedDestinationNeverGetsMoreThanItsBucketAllowsOneSecondOfBurstThenTwentyASecond() {
        var keys = new ArrayList<String>();
        for (int i = 0; i < 60; i++) {
            String id = "paced-" + i + "-" + UUID.randomUUID();
            keys.add("fwdpace:" + id);
            assertEquals(202, webhooks.send(webhooks.standard("fwdpace", id, "{\"type\":\"invoice.paid\"}")).statusCode());
        }
        for (String key : keys) {
            await(key, 1);
        }

        List<Long> times = keys.stream().map(arrivedAt::get).sorted().toList();
        for (int i = 0; i < times.size(); i++) {
            for (int j = i; j < times.size(); j++) {
                double seconds = (times.get(j) - times.get(i)) / 1e9;
                // A token bucket of 20, refilled at 20 a second: any stretch of time holds at most that many.
                assertTrue(j - i + 1 <= 20 + 20 * seconds + 1, (j - i + 1) + " forwardings arrived within "
                        + seconds + " s");
            }
        }
        JsonObject listed = operatorJson("api/destinations", 200).getJsonArray("destinations")
                .getValuesAs(JsonObject.class).stream().filter(d -> d.getString("source").equals("fwdpace")).findFirst()
                .orElseThrow();
        assertEquals(20.0, listed.getJsonNumber("ratePerSecond").doubleValue());
        assertEquals(2, listed.getInt("concurrency"));
    }

    private JsonObject destination(String source, String action) {
        HttpResponse<String> answer = webhooks.send(webhooks.operator("api/destinations/" + source + "/" + action)
                .POST(java.net.http.HttpRequest.BodyPublishers.noBody()));
        assertEquals(200, answer.statusCode(), answer.body());
        return Webhooks.json(answer.body());
    }

    @Test
    void aDestinationAnswering503ThenOkGetsTheEventTwiceUnderOneKey() {
        String id = "flaky-" + UUID.randomUUID();

        assertEquals(202, webhooks.send(webhooks.standard("fwd", id, "{\"type\":\"invoice.paid\"}")).statusCode());

        List<Received> copies = await("fwd:" + id, 2);
        Webhooks.sleep(Duration.ofSeconds(3));
        assertEquals(2, copies.size(), "retried after the 503, then delivered: no third request");
        assertEquals(copies.get(0).header("Idempotency-Key"), copies.get(1).header("Idempotency-Key"));
    }

    @Test
    void aDestinationRefusingWith400GetsTheEventOnceAndTheEntryIsDead() {
        String id = "bad-" + UUID.randomUUID();

        assertEquals(202, webhooks.send(webhooks.standard("fwd", id, "{\"type\":\"invoice.paid\"}")).statusCode());

        await("fwd:" + id, 1);
        Webhooks.sleep(Duration.ofSeconds(4));
        assertEquals(1, received.get("fwd:" + id).size(), "a 4xx is permanent: never sent again by itself");
        assertEquals("completed", webhooks.recorded("fwd", id).getString("status"),
                "the event was processed; its forwarding failed");
    }

    @Test
    void aDeadDeliveryIsListedForOperatorsAndAReplaySendsItAgainUnderTheSameKey() {
        String id = "fixable-" + UUID.randomUUID();
        assertEquals(202, webhooks.send(webhooks.standard("fwd", id, "{\"type\":\"invoice.paid\"}")).statusCode());
        await("fwd:" + id, 1);

        JsonObject dead = awaitForwarding(id, "dead");
        assertEquals(1, dead.getInt("attempts"));
        assertEquals("invoice.paid", dead.getString("type"));
        assertTrue(dead.getString("lastError").contains("400"), dead.toString());
        long deadId = dead.getJsonNumber("id").longValue();
        assertEquals(dead, operatorJson("api/forwardings/" + deadId, 200), "one forwarding reads as listed");

        fixed.add(id);
        HttpResponse<String> replay = webhooks.send(webhooks.operator("api/forwardings/" + deadId + "/replay")
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertEquals(202, replay.statusCode(), replay.body());

        List<Received> copies = await("fwd:" + id, 2);
        assertEquals(copies.get(0).header("Idempotency-Key"), copies.get(1).header("Idempotency-Key"));
        JsonObject delivered = awaitForwarding(id, "delivered");
        assertEquals(deadId, delivered.getJsonNumber("id").longValue());
        assertEquals(1, delivered.getInt("attempts"), "counted afresh by the replay");
        assertTrue(delivered.containsKey("deliveredAt"));
        Webhooks.sleep(Duration.ofSeconds(2));
        assertEquals(2, received.get("fwd:" + id).size(), "delivered by the replay: sent no more");
    }

    @Test
    void forwardingsPageNewestFirstAndRefuseWhatCannotBeAQuery() {
        for (int i = 0; i < 2; i++) {
            String id = "ok-" + UUID.randomUUID();
            assertEquals(202, webhooks.send(webhooks.standard("fwd", id, "{\"type\":\"invoice.paid\"}")).statusCode());
            awaitForwarding(id, "delivered");
        }
        JsonObject first = operatorJson("api/forwardings?source=fwd&limit=1", 200);
        JsonObject second = operatorJson("api/forwardings?source=fwd&limit=1&after=" + first.getString("next"), 200);
        long newest = first.getJsonArray("forwardings").getJsonObject(0).getJsonNumber("id").longValue();
        long older = second.getJsonArray("forwardings").getJsonObject(0).getJsonNumber("id").longValue();
        assertTrue(older < newest, "the second page continues below the first: " + older + " after " + newest);

        assertTrue(operatorJson("api/forwardings?status=sent", 400).getString("type").endsWith(":invalid-query"));
        assertEquals(400, operator("api/forwardings?after=yesterday").statusCode());
        assertEquals(400, operator("api/forwardings?limit=501").statusCode());
        assertEquals(404, operator("api/forwardings/abc").statusCode());
        HttpResponse<String> missing = webhooks.send(webhooks.operator("api/forwardings/987654321987/replay")
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertEquals(404, missing.statusCode());
        assertTrue(missing.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"));
        assertEquals(401, webhooks.get("api/forwardings").statusCode(), "the operator API stays locked");
    }

    @Test
    void theFormerPathOfForwardingsAnswersTheSameForOneReleaseSayingItIsDeprecated() {
        String id = "ok-" + UUID.randomUUID();
        assertEquals(202, webhooks.send(webhooks.standard("fwd", id, "{\"type\":\"invoice.paid\"}")).statusCode());
        awaitForwarding(id, "delivered");

        HttpResponse<String> former = operator("api/deliveries?source=fwd&eventId=" + id);

        assertEquals(200, former.statusCode(), former.body());
        assertEquals(operatorJson("api/forwardings?source=fwd&eventId=" + id, 200).getJsonArray("forwardings"),
                Webhooks.json(former.body()).getJsonArray("deliveries"), "the same forwardings, under their old name");
        assertEquals("true", former.headers().firstValue("Deprecation").orElse(""));
        assertEquals("</api/forwardings>; rel=\"successor-version\"", former.headers().firstValue("Link").orElse(""));
        long forwardingId = Webhooks.json(former.body()).getJsonArray("deliveries").getJsonObject(0)
                .getJsonNumber("id").longValue();
        assertEquals(operatorJson("api/forwardings/" + forwardingId, 200),
                Webhooks.json(operator("api/deliveries/" + forwardingId).body()));
        assertEquals(401, webhooks.get("api/deliveries").statusCode(), "the operator API stays locked");
    }

    @Test
    void aDestinationThatKeepsFailingIsLeftAloneAfterFiveFailuresInARow() {
        Set<String> ids = new java.util.HashSet<>();
        for (int i = 0; i < 8; i++) {
            String id = "down-" + UUID.randomUUID();
            ids.add(id);
            assertEquals(202, webhooks.send(webhooks.standard("fwddown", id, "{\"type\":\"invoice.paid\"}")).statusCode());
        }

        // Without the breaker: eight requests at once, then each again after 2, 4 and 8 s (at least 24). With it, five
        // failures in a row (however the eight were processed into turns), then nothing while it is open (30 s).
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (requestsToDown.get() < 5 && System.nanoTime() < deadline) {
            Webhooks.sleep(Duration.ofMillis(100));
        }
        Webhooks.sleep(Duration.ofSeconds(4));
        assertEquals(5, requestsToDown.get(), "five failures in a row, then no request while the breaker is open");

        List<JsonObject> pending = operatorJson("api/forwardings?source=fwddown&limit=500", 200)
                .getJsonArray("forwardings").getValuesAs(JsonObject.class).stream()
                .filter(d -> ids.contains(d.getString("eventId"))).toList();
        assertEquals(8, pending.size(), "every forwarding scheduled: " + pending);
        assertTrue(pending.stream().allMatch(d -> d.getString("status").equals("pending")), pending.toString());
        assertTrue(pending.stream().anyMatch(d -> d.getString("lastError", "").startsWith("circuit open")),
                "skipped entries say why: " + pending);
    }

    @Test
    void aHandlersEffectLeavesOnceAfterTheCommitUnderAStableKey() {
        String id = "two-" + UUID.randomUUID();
        assertEquals(202, webhooks.send(webhooks.standard("fx", id, "{\"type\":\"invoice.paid\"}")).statusCode());

        Received charge = awaitEffect("fx:" + id + ":effect-1");
        Received mail = awaitEffect("fx:" + id + ":effect-2");
        assertEquals("{\"charge\":\"" + id + "\",\"attempt\":1}", new String(charge.body(), StandardCharsets.UTF_8));
        assertEquals("application/json", charge.header("Content-Type"));
        assertEquals(id, charge.header("X-Hookstile-Event-Id"));
        assertEquals("paid: " + id, new String(mail.body(), StandardCharsets.UTF_8));
        assertEquals("text/plain", mail.header("Content-Type"));

        JsonObject delivered = awaitForwarding("fx", id, "delivered");
        assertTrue(delivered.getInt("effect") >= 1, delivered.toString());
        Webhooks.sleep(Duration.ofSeconds(2));
        assertEquals(1, effects.get("fx:" + id + ":effect-1").size(), "delivered, so sent once");
    }

    @Test
    void oneEventsDeliveriesAreFoundByItsSourceAndIdAndNoOthers() {
        // "two-": its handler posts two effects (EffectSender).
        String id = "two-" + UUID.randomUUID();
        String other = "two-" + UUID.randomUUID();
        for (String event : List.of(id, other)) {
            assertEquals(202, webhooks.send(webhooks.standard("fx", event, "{\"type\":\"invoice.paid\"}")).statusCode());
        }
        // Its effects are scheduled in the try that completes it.
        webhooks.awaitRecorded("fx", id, completed(), DELIVERY);
        webhooks.awaitRecorded("fx", other, completed(), DELIVERY);

        List<JsonObject> found = operatorJson("api/forwardings?source=fx&eventId=" + id, 200)
                .getJsonArray("forwardings").getValuesAs(JsonObject.class);

        assertEquals(List.of(id, id), found.stream().map(d -> d.getString("eventId")).toList(), found.toString());
        assertEquals(Set.of(1, 2), found.stream().map(d -> d.getInt("effect")).collect(Collectors.toSet()),
                "both of its handler's effects, newest first: " + found);
        assertEquals(0, operatorJson("api/forwardings?source=fwd&eventId=" + id, 200).getJsonArray("forwardings")
                .size(), "the same id under another source is another event");
        JsonObject refused = operatorJson("api/forwardings?eventId=" + id, 400);
        assertTrue(refused.getString("detail").contains("source"), refused.toString());
    }

    @Test
    void anEffectScheduledByATryThatRolledBackNeverLeaves() {
        String id = "fail-once-" + UUID.randomUUID();
        assertEquals(202, webhooks.send(webhooks.standard("fx", id, "{\"type\":\"invoice.paid\"}")).statusCode());

        JsonObject recorded = webhooks.awaitRecorded("fx", id, completed(), DELIVERY);
        assertEquals(2, recorded.getInt("attempts"), recorded.toString());
        Received charge = awaitEffect("fx:" + id + ":effect-1");
        Webhooks.sleep(Duration.ofSeconds(2));
        assertEquals(1, effects.get("fx:" + id + ":effect-1").size());
        assertEquals("{\"charge\":\"" + id + "\",\"attempt\":2}", new String(charge.body(), StandardCharsets.UTF_8),
                "the effect of the try that committed; attempt 1's went back with its rollback");
    }

    @Test
    void aReplayRunsTheHandlerAgainButSendsItsEffectNoSecondTime() {
        String id = "fx-" + UUID.randomUUID();
        assertEquals(202, webhooks.send(webhooks.standard("fx", id, "{\"type\":\"invoice.paid\"}")).statusCode());
        awaitEffect("fx:" + id + ":effect-1");
        webhooks.awaitRecorded("fx", id, completed(), DELIVERY);

        HttpResponse<String> replay = webhooks.send(webhooks.operator("api/events/fx/" + id + "/replay")
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertEquals(202, replay.statusCode(), replay.body());
        webhooks.awaitRecorded("fx", id, state -> state.getInt("attempts") >= 2 && completed().test(state), DELIVERY);

        Webhooks.sleep(Duration.ofSeconds(3));
        assertEquals(1, effects.get("fx:" + id + ":effect-1").size(), "scheduled once: the replay's is the same effect");
    }

    private static Received awaitEffect(String key) {
        long deadline = System.nanoTime() + DELIVERY.toNanos();
        while (System.nanoTime() < deadline) {
            List<Received> copies = effects.getOrDefault(key, List.of());
            if (!copies.isEmpty()) {
                return copies.get(0);
            }
            Webhooks.sleep(Duration.ofMillis(100));
        }
        throw new AssertionError("no effect " + key + " within " + DELIVERY.toSeconds() + " s; got " + effects.keySet());
    }

    private JsonObject awaitForwarding(String eventId, String status) {
        return awaitForwarding("fwd", eventId, status);
    }

    private JsonObject awaitForwarding(String source, String eventId, String status) {
        long deadline = System.nanoTime() + DELIVERY.toNanos();
        JsonObject last = null;
        while (System.nanoTime() < deadline) {
            last = operatorJson("api/forwardings?source=" + source + "&type=invoice.paid&limit=500", 200)
                    .getJsonArray("forwardings").getValuesAs(JsonObject.class).stream()
                    .filter(d -> d.getString("eventId").equals(eventId)).findFirst().orElse(null);
            if (last != null && last.getString("status").equals(status)) {
                return last;
            }
            Webhooks.sleep(Duration.ofMillis(200));
        }
        throw new AssertionError("delivery of " + eventId + " never " + status + ": " + last);
    }

    private HttpResponse<String> operator(String path) {
        return webhooks.send(webhooks.operator(path).GET());
    }

    private JsonObject operatorJson(String path, int expectedStatus) {
        HttpResponse<String> response = operator(path);
        assertEquals(expectedStatus, response.statusCode(), path + ": " + response.body());
        assertNotEquals("", response.body());
        return Webhooks.json(response.body());
    }

    private static List<Received> await(String key, int count) {
        long deadline = System.nanoTime() + DELIVERY.toNanos();
        while (System.nanoTime() < deadline) {
            List<Received> copies = received.getOrDefault(key, List.of());
            if (copies.size() >= count) {
                return copies;
            }
            Webhooks.sleep(Duration.ofMillis(100));
        }
        throw new AssertionError(key + ": " + received.getOrDefault(key, new ArrayList<>()).size() + " of " + count
                + " requests after " + DELIVERY.toSeconds() + " s");
    }

    private static boolean signedBy(byte[] secret, Received request) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            mac.update((request.header("webhook-id") + "." + request.header("webhook-timestamp") + ".")
                    .getBytes(StandardCharsets.UTF_8));
            String expected = "v1," + Base64.getEncoder().encodeToString(mac.doFinal(request.body()));
            return List.of(request.header("webhook-signature").split(" ")).contains(expected);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
