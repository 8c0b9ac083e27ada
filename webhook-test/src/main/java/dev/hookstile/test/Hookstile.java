package dev.hookstile.test;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;

/**
 * A deployed Hookstile, seen as a sender and an operator see it: sends {@link SignedDelivery signed deliveries} and
 * waits for each event's outcome through the operator API, signed in with the token {@link TestRuntime} gave the
 * server.
 *
 * <pre>{@code
 * @ArquillianResource URL url;
 *
 * EventOutcome outcome = Hookstile.at(url).process(Deliveries.stripe("billing", SECRET, invoicePaid));
 * assertEquals("completed", outcome.status());
 * }</pre>
 */
public final class Hookstile {

    private static final Set<String> FINISHED = Set.of("completed", "ignored", "dead");
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    private final URI base;
    private final String token;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private Hookstile(URI base, String token) {
        this.base = base;
        this.token = token;
    }

    /**
     * The deployment at the URL Arquillian injects ({@code @ArquillianResource URL}), addressed on the loopback
     * interface, from which the operator API answers by default.
     */
    public static Hookstile at(URL deployment) {
        String path = deployment.getPath().isEmpty() ? "/" : deployment.getPath();
        Hookstile hookstile = new Hookstile(URI.create("http://127.0.0.1:" + deployment.getPort()
                + (path.endsWith("/") ? path : path + "/")), TestRuntime.adminToken());
        hookstile.awaitReady();
        return hookstile;
    }

    /**
     * Arquillian starts the tests once Payara Micro says the archive is deployed; the web context may still be
     * starting then, and a delivery sent at once was answered 404. Ready means {@code /health/ready} is UP (the
     * database, the broker and the queue consumers) and the operator API answers.
     */
    private void awaitReady() {
        URI health = URI.create(base.getScheme() + "://" + base.getAuthority() + "/health/ready");
        Instant deadline = Instant.now().plus(PATIENCE);
        HttpResponse<String> last = null;
        while (Instant.now().isBefore(deadline)) {
            try {
                last = http.send(HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(10)).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
                if (last.statusCode() == 200 && call(operator("api/sources").GET().build()).statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
            pause();
        }
        throw new AssertionError("Hookstile at " + base + " was not ready within " + PATIENCE + ": "
                + (last == null ? "no answer" : last.statusCode() + " " + last.body()));
    }

    /**
     * A Hookstile run some other way (with {@code ./hookstile}, in a container), its application at {@code base}
     * ({@code http://127.0.0.1:8080/}), signed in with its operator token ({@code HOOKSTILE_ADMIN_TOKEN} or the
     * data directory's {@code admin-token}); waits until it is ready.
     */
    public static Hookstile at(URI base, String adminToken) {
        String text = base.toString();
        Hookstile hookstile = new Hookstile(URI.create(text.endsWith("/") ? text : text + "/"),
                java.util.Objects.requireNonNull(adminToken, "adminToken"));
        hookstile.awaitReady();
        return hookstile;
    }

    /** The application's root, where {@code webhooks/} and {@code api/} are. */
    public URI base() {
        return base;
    }

    /** Sends a delivery and returns the answer, whatever it is. */
    public HttpResponse<String> send(SignedDelivery delivery) {
        return call(delivery.request(base).build());
    }

    /**
     * Sends a delivery that must be taken: {@code 202 accepted}, or {@code 200 duplicate} for an event already
     * received; anything else fails with the answer.
     */
    public Receipt deliver(SignedDelivery delivery) {
        HttpResponse<String> answer = send(delivery);
        if (answer.statusCode() != 202 && answer.statusCode() != 200) {
            throw new AssertionError("POST " + answer.request().uri() + " was answered " + answer.statusCode() + ": "
                    + answer.body());
        }
        JsonObject body = json(answer.body()).asJsonObject();
        return new Receipt(body.getString("status"), body.getString("source"), body.getString("eventId"));
    }

    /** Sends a delivery that must be accepted and waits for its event's outcome. */
    public EventOutcome process(SignedDelivery delivery) {
        Receipt receipt = deliver(delivery);
        if (!"accepted".equals(receipt.status())) {
            throw new AssertionError("expected a new event, got " + receipt);
        }
        return awaitOutcome(receipt.source(), receipt.eventId());
    }

    /**
     * Waits up to a minute until the event is {@code completed}, {@code ignored} or {@code dead} (not while it is
     * {@code received} or {@code retrying}) and returns it.
     */
    public EventOutcome awaitOutcome(String source, String eventId) {
        Instant deadline = Instant.now().plus(PATIENCE);
        EventOutcome last = null;
        while (Instant.now().isBefore(deadline)) {
            last = event(source, eventId);
            if (last != null && FINISHED.contains(last.status())) {
                return last;
            }
            pause();
        }
        throw new AssertionError("event " + source + "/" + eventId + " did not finish within " + PATIENCE
                + "; last seen: " + last);
    }

    /** The event as the operator API shows it now, or {@code null} if none is recorded. */
    public EventOutcome event(String source, String eventId) {
        HttpResponse<String> answer = call(operator("api/events/" + segment(source) + "/" + segment(eventId))
                .GET().build());
        if (answer.statusCode() == 404) {
            return null;
        }
        expect(200, answer);
        return EventOutcome.of(json(answer.body()).asJsonObject());
    }

    /**
     * Queues a finished event again ({@code POST /api/events/{source}/{eventId}/replay}); wait for the new outcome
     * with {@link #awaitOutcome}.
     */
    public void replay(String source, String eventId) {
        expect(202, call(operator("api/events/" + segment(source) + "/" + segment(eventId) + "/replay")
                .POST(HttpRequest.BodyPublishers.noBody()).build()));
    }

    /**
     * The outbox's forwardings for one event: the source's forwarding and the handlers' effects
     * ({@code GET /api/forwardings?source=&eventId=}), each with its {@code status}, {@code attempts} and
     * {@code destination}.
     */
    public JsonArray forwardings(String source, String eventId) {
        HttpResponse<String> answer = call(operator("api/forwardings?source=" + query(source) + "&eventId="
                + query(eventId)).GET().build());
        expect(200, answer);
        return json(answer.body()).asJsonObject().getJsonArray("forwardings");
    }

    /** The former name of {@link #forwardings}, kept for one release. */
    @Deprecated(forRemoval = true)
    public JsonArray deliveries(String source, String eventId) {
        return forwardings(source, eventId);
    }

    private HttpRequest.Builder operator(String path) {
        return HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token);
    }

    private HttpResponse<String> call(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(request.method() + " " + request.uri() + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static void expect(int status, HttpResponse<String> answer) {
        if (answer.statusCode() != status) {
            throw new AssertionError(answer.request().method() + " " + answer.request().uri() + " answered "
                    + answer.statusCode() + ", not " + status + ": " + answer.body());
        }
    }

    private static JsonValue json(String text) {
        try (JsonReader reader = Json.createReader(new StringReader(text))) {
            return reader.readValue();
        }
    }

    private static String segment(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String query(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Hookstile's answer to a delivery: {@code accepted} or {@code duplicate}, and the event it names. */
    public record Receipt(String status, String source, String eventId) {
    }
}
