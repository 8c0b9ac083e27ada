package dev.hookstile.it;

import com.stripe.net.Webhook;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * A webhook sender and observer for the integration tests: signs as the providers do (Stripe through its official
 * SDK), posts, and reads back what the server recorded. The secrets are those of the sources in {@link ItSources}.
 */
public final class Webhooks {

    public static final String STANDARD_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    /** The {@code swkeys} source's sender's Ed25519 key; the source holds its public key only. */
    public static final String STANDARD_SIGNING_KEY = "whsk_"
            + Base64.getEncoder().encodeToString("hookstile-it-ed25519-seed-32byte".getBytes(StandardCharsets.UTF_8));
    public static final String GITHUB_SECRET = "it-github-secret";
    public static final String STRIPE_SECRET = "whsec_it_stripe_secret";
    public static final String SHOPIFY_SECRET = "it-shopify-secret";
    public static final String SLACK_SECRET = "it-slack-signing-secret";
    public static final String TWILIO_TOKEN = "it-twilio-auth-token";
    public static final String META_SECRET = "it-meta-app-secret";
    public static final String META_VERIFY_TOKEN = "it-verify-token";
    public static final String INHOUSE_SECRET = "it-inhouse-secret";

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    /** @param base the application's root URL */
    public Webhooks(String base) {
        this.base = base.endsWith("/") ? base : base + "/";
    }

    /** The application's root on the loopback interface, from the URL Arquillian injects. */
    public static Webhooks at(java.net.URL deployment) {
        String path = deployment.getPath();
        return new Webhooks("http://127.0.0.1:" + deployment.getPort() + (path.isEmpty() ? "/" : path));
    }

    /** The server's root (where /health lives), whatever the application's context root. */
    public Webhooks server() {
        URI uri = URI.create(base);
        return new Webhooks(uri.getScheme() + "://" + uri.getHost() + ":" + uri.getPort() + "/");
    }

    public String base() {
        return base;
    }

    /** A Standard Webhooks delivery to the {@code it} source, signed now. */
    public HttpRequest.Builder standard(String source, String eventId, String body) {
        String timestamp = String.valueOf(Instant.now().getEpochSecond());
        byte[] key = Base64.getDecoder().decode(STANDARD_SECRET.substring("whsec_".length()));
        String signature = Base64.getEncoder().encodeToString(
                hmac("HmacSHA256", key, eventId + "." + timestamp + "." + body));
        return post(source, body)
                .header("webhook-id", eventId)
                .header("webhook-timestamp", timestamp)
                .header("webhook-signature", "v1," + signature);
    }

    /** A Standard Webhooks delivery signed {@code v1a} (Ed25519) with {@link #STANDARD_SIGNING_KEY}, now. */
    public HttpRequest.Builder standardV1a(String source, String eventId, String body) {
        var signed = dev.hookstile.test.Deliveries.standardWebhooksV1a(source, STANDARD_SIGNING_KEY, eventId, body);
        return post(source, body)
                .header("webhook-id", eventId)
                .header("webhook-timestamp", signed.header("webhook-timestamp"))
                .header("webhook-signature", signed.header("webhook-signature"));
    }

    public HttpRequest.Builder github(String deliveryId, String event, String body, String secret) {
        return github("gh", deliveryId, event, body, secret);
    }

    public HttpRequest.Builder github(String source, String deliveryId, String event, String body, String secret) {
        String signature = HexFormat.of().formatHex(hmac("HmacSHA256", secret.getBytes(StandardCharsets.UTF_8), body));
        return post(source, body)
                .header("X-GitHub-Delivery", deliveryId)
                .header("X-GitHub-Event", event)
                .header("X-Hub-Signature-256", "sha256=" + signature);
    }

    public HttpRequest.Builder stripe(String body) {
        try {
            long t = Instant.now().getEpochSecond();
            String v1 = Webhook.Util.computeHmacSha256(STRIPE_SECRET, t + "." + body);
            return post("pay", body).header("Stripe-Signature", "t=" + t + ",v1=" + v1);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Svix signs exactly like Standard Webhooks, on {@code svix-*} headers. */
    public HttpRequest.Builder svix(String eventId, String body) {
        String timestamp = String.valueOf(Instant.now().getEpochSecond());
        byte[] key = Base64.getDecoder().decode(STANDARD_SECRET.substring("whsec_".length()));
        String signature = Base64.getEncoder().encodeToString(
                hmac("HmacSHA256", key, eventId + "." + timestamp + "." + body));
        return post("svix", body)
                .header("svix-id", eventId)
                .header("svix-timestamp", timestamp)
                .header("svix-signature", "v1," + signature);
    }

    public HttpRequest.Builder shopify(String webhookId, String topic, String body) {
        return post("shop", body)
                .header("X-Shopify-Webhook-Id", webhookId)
                .header("X-Shopify-Topic", topic)
                .header("X-Shopify-Hmac-Sha256", Base64.getEncoder().encodeToString(
                        hmac("HmacSHA256", SHOPIFY_SECRET.getBytes(StandardCharsets.UTF_8), body)));
    }

    public HttpRequest.Builder slack(String body) {
        String timestamp = String.valueOf(Instant.now().getEpochSecond());
        String signature = HexFormat.of().formatHex(hmac("HmacSHA256", SLACK_SECRET.getBytes(StandardCharsets.UTF_8),
                "v0:" + timestamp + ":" + body));
        return post("slack", body)
                .header("X-Slack-Request-Timestamp", timestamp)
                .header("X-Slack-Signature", "v0=" + signature);
    }

    /** The {@code tw} source's public URL (webhook-war/pom.xml): what Twilio was given, behind a proxy. */
    public static final String TWILIO_PUBLIC_URL = "https://hooks.example.test/webhooks/tw";

    /**
     * Twilio signs the URL it was given plus the sorted form parameters: the source's public URL, not the one this
     * client posts to.
     */
    public HttpRequest.Builder twilio(java.util.SortedMap<String, String> form) {
        var body = new StringBuilder();
        form.forEach((name, value) -> body.append(body.isEmpty() ? "" : "&")
                .append(java.net.URLEncoder.encode(name, StandardCharsets.UTF_8))
                .append('=').append(java.net.URLEncoder.encode(value, StandardCharsets.UTF_8)));
        return twilio(form, body.toString());
    }

    /** The form's fields signed as Twilio signs them, sent as {@code body}: any encoding or order of those fields. */
    public HttpRequest.Builder twilio(java.util.SortedMap<String, String> form, String body) {
        String url = base + "webhooks/tw";
        var signed = new StringBuilder(TWILIO_PUBLIC_URL);
        form.forEach((name, value) -> signed.append(name).append(value));
        return HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("X-Twilio-Signature", Base64.getEncoder().encodeToString(
                        hmac("HmacSHA1", TWILIO_TOKEN.getBytes(StandardCharsets.UTF_8), signed.toString())))
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    public HttpRequest.Builder meta(String body) {
        return post("wa", body).header("X-Hub-Signature-256", "sha256=" + HexFormat.of().formatHex(
                hmac("HmacSHA256", META_SECRET.getBytes(StandardCharsets.UTF_8), body)));
    }

    /** The in-house sender of the {@code hmac} source: base64 HMAC-SHA512 with a {@code sha512=} prefix. */
    public HttpRequest.Builder inhouse(String body) {
        return post("inhouse", body).header("X-Signature", "sha512=" + Base64.getEncoder().encodeToString(
                hmac("HmacSHA512", INHOUSE_SECRET.getBytes(StandardCharsets.UTF_8), body)));
    }

    /** A call to the operator API with the token the tests configure ({@code HOOKSTILE_ADMIN_TOKEN}). */
    public HttpRequest.Builder operator(String path) {
        return HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + System.getenv("HOOKSTILE_ADMIN_TOKEN"));
    }

    public HttpRequest.Builder post(String source, String body) {
        return HttpRequest.newBuilder(URI.create(base + "webhooks/" + source))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    public HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30)).GET());
    }

    /** What the server recorded for the event: status, attempts, payload, headers, and the handler's effects. */
    public JsonObject recorded(String source, String eventId) {
        HttpResponse<String> response = get("it/events/" + source + "/" + eventId);
        if (response.statusCode() != 200) {
            fail("probe answered " + response.statusCode() + ": " + response.body());
        }
        return json(response.body());
    }

    /** Polls until the recorded state satisfies the condition; fails with the last state after the timeout. */
    public JsonObject awaitRecorded(String source, String eventId, Predicate<JsonObject> condition, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonObject last;
        do {
            last = recorded(source, eventId);
            if (condition.test(last)) {
                return last;
            }
            sleep(Duration.ofMillis(100));
        } while (System.nanoTime() < deadline);
        return fail("after " + timeout.toSeconds() + " s " + source + "/" + eventId + " is still " + last);
    }

    /**
     * Polls {@code GET /api/rejections} with this query until a kept refusal satisfies the condition: refusals are
     * written in batches every few seconds, off the request's thread.
     */
    public JsonObject awaitRefusal(String query, Predicate<JsonObject> wanted) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        String last;
        do {
            HttpResponse<String> page = send(operator("api/rejections" + query).GET());
            if (page.statusCode() != 200) {
                fail("api/rejections answered " + page.statusCode() + ": " + page.body());
            }
            last = page.body();
            var found = json(last).getJsonArray("rejections").getValuesAs(JsonObject.class).stream()
                    .filter(wanted).findFirst();
            if (found.isPresent()) {
                return found.get();
            }
            sleep(Duration.ofMillis(100));
        } while (System.nanoTime() < deadline);
        return fail("not kept within 20 s: " + last);
    }

    /** Polls {@code GET /api/replays/{id}} until the bulk replay is no longer running; fails after the timeout. */
    public JsonObject awaitReplayJob(String id, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonObject job;
        do {
            job = json(send(operator("api/replays/" + id).GET()).body());
            if (!"running".equals(job.getString("status"))) {
                return job;
            }
            sleep(Duration.ofMillis(200));
        } while (System.nanoTime() < deadline);
        return fail("the replay job is still running after " + timeout.toSeconds() + " s: " + job);
    }

    /** The server's count of deliveries refused for this reason ({@code hookstile_deliveries_rejected_total}). */
    public long rejections(String reason) {
        HttpResponse<String> metrics = get("metrics");
        if (metrics.statusCode() != 200) {
            fail("metrics answered " + metrics.statusCode() + ": " + metrics.body());
        }
        return metrics.body().lines()
                .filter(line -> line.startsWith("hookstile_deliveries_rejected_total{"))
                .filter(line -> line.contains("reason=\"" + reason + "\""))
                .mapToLong(line -> (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .findFirst()
                .orElse(0);
    }

    /** The server's count of events queued for processing ({@code hookstile_events_accepted_total}). */
    public long accepted() {
        return counter("hookstile_events_accepted_total");
    }

    /** The server's count of messages ingest sent to the queue ({@code hookstile_queue_messages_total}). */
    public long queueMessages() {
        return counter("hookstile_queue_messages_total");
    }

    /** A counter of the application metrics, summed over its tags. */
    public long counter(String name) {
        HttpResponse<String> metrics = get("metrics");
        if (metrics.statusCode() != 200) {
            fail("metrics answered " + metrics.statusCode() + ": " + metrics.body());
        }
        return metrics.body().lines()
                .filter(line -> line.startsWith(name + "{") || line.startsWith(name + " "))
                .mapToLong(line -> (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }

    public static Predicate<JsonObject> completed() {
        return state -> "completed".equals(state.getString("status"));
    }

    public static JsonObject json(String text) {
        try (var reader = Json.createReader(new StringReader(text))) {
            return reader.readObject();
        }
    }

    public static JsonArray jsonArray(String text) {
        try (var reader = Json.createReader(new StringReader(text))) {
            return reader.readArray();
        }
    }

    public static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static byte[] hmac(String algorithm, byte[] key, String message) {
        try {
            Mac mac = Mac.getInstance(algorithm);
            mac.init(new SecretKeySpec(key, algorithm));
            return mac.doFinal(message.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
