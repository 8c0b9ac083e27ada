package dev.hookstile.notify.boundary;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.hookstile.it.Deployments;
import dev.hookstile.it.ItEnvironment;
import dev.hookstile.it.ItSources;
import dev.hookstile.it.ServerProcess;
import dev.hookstile.it.Webhooks;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

import static dev.hookstile.it.Webhooks.completed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Notifications to an operator's endpoint, received by a server this test runs, from a Hookstile of its own
 * ({@code ./hookstile}, so that no other test's server notifies anyone): the source {@code dying}, configured there
 * only, whose {@code broken-} events die at once (PermanentFailure) and whose {@code flaky2-} events wait, retrying,
 * for several seconds. Windows of 5 s closed 2 s after their end; a source is behind after 2 s.
 *
 * <p>The endpoint answers the first request of every notification 503 and later ones 200: a notification is retried
 * under the same {@code webhook-id}, and delivered (2xx) once. Signatures are checked here by hand, from the Standard
 * Webhooks specification.
 */
class NotificationsIT {

    private static final String SECRET = "whsec_" + Base64.getEncoder()
            .encodeToString("notifications-it-secret-32-bytes".getBytes(StandardCharsets.UTF_8));
    private static final String CONSOLE = "https://hooks.example.test/console/";
    private static final int STORM = 200;
    private static final Duration WAIT = Duration.ofSeconds(120);

    private static HttpServer endpoint;
    private static ServerProcess server;
    /** Every request the endpoint got, by {@code webhook-id}, in order. */
    private static final Map<String, List<Request>> requests = new ConcurrentHashMap<>();

    record Request(int answered, String id, String timestamp, String signature, String body) {

        JsonObject json() {
            return Webhooks.json(body);
        }

        boolean delivered() {
            return answered >= 200 && answered < 300;
        }
    }

    @BeforeAll
    static void startEndpointAndServer() throws IOException {
        endpoint = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        endpoint.createContext("/notify", NotificationsIT::receive);
        endpoint.start();
        Path work = Files.createDirectories(ItEnvironment.dir().resolve("notifications-" + UUID.randomUUID()));
        server = new ServerProcess(work, Deployments.exportTo(work.resolve("hookstile-it.war")))
                .with("HOOKSTILE_JAVA_OPTS", "-Xms128m -Xmx512m")
                .with("HOOKSTILE_SOURCES", ItSources.NAMES + ",dying")
                .with("HOOKSTILE_SOURCES_DYING_PROVIDER", "standard-webhooks")
                .with("HOOKSTILE_SOURCES_DYING_SECRETS", Webhooks.STANDARD_SECRET)
                .with("HOOKSTILE_SOURCES_DYING_RETRIES", "0")
                .with("HOOKSTILE_SOURCES_DYING_MAX_ATTEMPTS", "10")
                // A retrying event waits seconds between its deliveries: long enough to be behind.
                .with("HOOKSTILE_PROCESSING_REDELIVERY_DELAY_MS", "3000")
                .with("HOOKSTILE_NOTIFY_URL", "http://127.0.0.1:" + endpoint.getAddress().getPort() + "/notify")
                .with("HOOKSTILE_NOTIFY_SECRET", SECRET)
                .with("HOOKSTILE_NOTIFY_GROUP_SECONDS", "5")
                .with("HOOKSTILE_NOTIFY_GRACE_SECONDS", "2")
                .with("HOOKSTILE_NOTIFY_BEHIND_SECONDS", "2")
                .with("HOOKSTILE_NOTIFY_PAUSED_SECONDS", "2")
                .with("HOOKSTILE_CONSOLE_URL", CONSOLE)
                // Every first request refused would open the endpoint's breaker and hold notifications 30 s.
                .with("HOOKSTILE_OUTBOX_BREAKER_FAILURES", "1000")
                .start();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        if (endpoint != null) {
            endpoint.stop(0);
        }
    }

    private static void receive(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String id = exchange.getRequestHeaders().getFirst("webhook-id");
        List<Request> earlier = requests.computeIfAbsent(String.valueOf(id), k -> new CopyOnWriteArrayList<>());
        int status = earlier.isEmpty() ? 503 : 200;
        earlier.add(new Request(status, id, exchange.getRequestHeaders().getFirst("webhook-timestamp"),
                exchange.getRequestHeaders().getFirst("webhook-signature"), body));
        exchange.sendResponseHeaders(status, -1);
        exchange.close();
    }

    /** The notifications delivered (answered 2xx) whose body satisfies the condition, one request each. */
    private static List<Request> delivered(Predicate<JsonObject> which) {
        var delivered = new ArrayList<Request>();
        for (List<Request> copies : requests.values()) {
            for (Request request : copies) {
                if (request.delivered() && which.test(request.json())) {
                    delivered.add(request);
                }
            }
        }
        return delivered;
    }

    private static Predicate<JsonObject> of(String type, String source) {
        return body -> type.equals(body.getString("type", "")) && source.equals(body.getString("source", ""));
    }

    private static long counted(List<Request> notifications) {
        return notifications.stream().mapToLong(request -> request.json().getJsonNumber("count").longValue()).sum();
    }

    @Test
    void aStormOfDeathsIsAHandfulOfSignedNotificationsEachDeliveredOnceCountingEveryDeath() {
        Webhooks webhooks = server.webhooks();
        var ids = new ArrayList<String>();
        for (int i = 0; i < STORM; i++) {
            String id = "broken-" + UUID.randomUUID();
            assertEquals(202, webhooks.send(webhooks.standard("dying", id, "{\"type\":\"storm\"}")).statusCode());
            ids.add(id);
        }
        for (String id : ids) {
            webhooks.awaitRecorded("dying", id, state -> "dead".equals(state.getString("status")), WAIT);
        }

        Predicate<JsonObject> deaths = of("events.dead", "dying");
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (counted(delivered(deaths)) < STORM && System.nanoTime() < deadline) {
            Webhooks.sleep(Duration.ofMillis(200));
        }
        // Past another window, its grace and a retry: a notification counted twice, or a second copy delivered,
        // would have come.
        Webhooks.sleep(Duration.ofSeconds(12));

        List<Request> notifications = delivered(deaths);
        assertEquals(STORM, counted(notifications), "every death counted once: " + bodies(notifications));
        assertTrue(notifications.size() <= 5, "grouped: " + notifications.size() + " notifications");
        for (Request notification : notifications) {
            List<Request> copies = requests.get(notification.id());
            assertEquals(1, copies.stream().filter(Request::delivered).count(), "delivered once: " + copies);
            assertEquals(2, copies.size(), "refused once, then retried under the same webhook-id: " + copies);
            copies.forEach(NotificationsIT::assertSigned);
            JsonObject body = notification.json();
            assertEquals(notification.id(), body.getString("id"));
            assertTrue(notification.id().startsWith("events.dead:dying:permanent:"), notification.id());
            assertEquals("permanent", body.getString("failure"));
            assertTrue(body.getJsonNumber("count").longValue() > 0, body.toString());
            Instant first = Instant.parse(body.getString("first"));
            Instant last = Instant.parse(body.getString("last"));
            assertTrue(!last.isBefore(first), body.toString());
            assertTrue(body.getString("sample").contains("PermanentFailure"), body.toString());
            assertEquals(CONSOLE + "#/dead?source=dying", body.getString("link"));
        }
    }

    @Test
    void aSourceWhoseOldestWaitingEventIsTooOldIsBehindUntilItCatchesUp() {
        Webhooks webhooks = server.webhooks();
        String id = "flaky2-" + UUID.randomUUID();

        assertEquals(202, webhooks.send(webhooks.standard("dying", id, "{\"type\":\"slow\"}")).statusCode());

        Request behind = awaitOne(of("processing.behind", "dying"));
        webhooks.awaitRecorded("dying", id, completed(), WAIT);
        Request caughtUp = awaitOne(of("processing.caught_up", "dying"));
        Webhooks.sleep(Duration.ofSeconds(3));
        assertEquals(1, delivered(of("processing.behind", "dying")).size(), "told once");
        assertEquals(1, delivered(of("processing.caught_up", "dying")).size(), "told once");
        assertSigned(behind);
        assertSigned(caughtUp);
        assertEquals(1, behind.json().getInt("count"), behind.body());
        assertEquals(CONSOLE + "#/overview?source=dying", behind.json().getString("link"));
        assertTrue(behind.json().isNull("failure"));
        assertEquals(caughtUp.json().getString("first"), Instant.parse(behind.json().getString("last"))
                .truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString(), "behind since it was told");
    }

    @Test
    void aDestinationPausedLongerThanTheLimitIsToldOnceForThatPause() {
        Webhooks webhooks = server.webhooks();
        pauseOrResume(webhooks, "fwdhold", "pause");
        try {
            Request told = awaitOne(of("destination.paused_long", "fwdhold"));

            assertSigned(told);
            assertEquals("fwdhold", told.json().getString("destination"), told.body());
            assertTrue(told.json().getString("link").contains("forwardings"), told.body());
            assertEquals(0, told.json().getInt("count"), "nothing held: no event of fwdhold was processed here");
            Webhooks.sleep(Duration.ofSeconds(4));
            assertEquals(1, delivered(of("destination.paused_long", "fwdhold")).size(), "told once per pause");
        } finally {
            pauseOrResume(webhooks, "fwdhold", "resume");
        }
    }

    private static void pauseOrResume(Webhooks webhooks, String source, String action) {
        HttpResponse<String> answer = webhooks.send(webhooks.operator("api/destinations/" + source + "/" + action)
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertEquals(200, answer.statusCode(), answer.body());
    }

    /**
     * A chat's incoming webhook carries its secret in the path: the operator API (what the console shows) names the
     * notification endpoint by its scheme, host and port only, as the server's log does.
     */
    @Test
    void theNotificationEndpointIsShownWithoutItsPath() throws IOException {
        Webhooks webhooks = server.webhooks();
        String id = "broken-" + UUID.randomUUID();
        // A death of another source than dying, whose deaths the storm counts.
        assertEquals(202, webhooks.send(webhooks.standard("it", id, "{\"type\":\"shown\"}")).statusCode());
        webhooks.awaitRecorded("it", id, state -> "dead".equals(state.getString("status")), WAIT);

        String origin = "http://127.0.0.1:" + endpoint.getAddress().getPort();
        List<JsonObject> rows = List.of();
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (rows.isEmpty() && System.nanoTime() < deadline) {
            HttpResponse<String> page = webhooks.send(webhooks.operator("api/forwardings?source=_notify").GET());
            assertEquals(200, page.statusCode(), page.body());
            assertFalse(page.body().contains("/notify"), page.body());
            rows = Webhooks.json(page.body()).getJsonArray("forwardings").getValuesAs(JsonObject.class);
            if (rows.isEmpty()) {
                Webhooks.sleep(Duration.ofMillis(200));
            }
        }
        assertFalse(rows.isEmpty(), "a notification is in the outbox");
        rows.forEach(row -> assertEquals(origin, row.getString("destination"), row.toString()));
        String log = Files.readString(server.output());
        assertTrue(log.contains(origin), "the start-up line names the endpoint");
        assertFalse(log.contains(origin + "/notify"), "no line names its path");
    }

    private static Request awaitOne(Predicate<JsonObject> which) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        do {
            List<Request> found = delivered(which);
            if (!found.isEmpty()) {
                return found.get(0);
            }
            Webhooks.sleep(Duration.ofMillis(200));
        } while (System.nanoTime() < deadline);
        return fail("no such notification within " + WAIT.toSeconds() + " s; received " + requests.keySet());
    }

    /** Standard Webhooks: {@code v1,} base64 HMAC-SHA256 of {@code id.timestamp.body} with the secret's key. */
    private static void assertSigned(Request request) {
        long timestamp = Long.parseLong(request.timestamp());
        assertTrue(Math.abs(Instant.now().getEpochSecond() - timestamp) < 300, "a fresh timestamp: " + timestamp);
        byte[] expected;
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(Base64.getDecoder().decode(SECRET.substring("whsec_".length())), "HmacSHA256"));
            expected = mac.doFinal((request.id() + "." + request.timestamp() + "." + request.body())
                    .getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        boolean verified = false;
        for (String signature : request.signature().split(" ")) {
            if (signature.startsWith("v1,")) {
                verified |= MessageDigest.isEqual(expected, Base64.getDecoder().decode(signature.substring(3)));
            }
        }
        assertTrue(verified, "webhook-signature verifies: " + request.signature());
    }

    private static List<String> bodies(List<Request> requests) {
        return requests.stream().map(Request::body).toList();
    }
}
