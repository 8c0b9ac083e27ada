package dev.hookstile.operator.boundary;

import dev.hookstile.it.DeployedHookstile;
import dev.hookstile.it.Webhooks;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import static dev.hookstile.it.Webhooks.completed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The operator API as an operator and a sender meet it: {@code /api} only with the admin bearer token (401 problem
 * details with a Bearer challenge otherwise), no secret material in what it shows, and webhooks, health and the
 * OpenAPI description as open as before.
 */
class OperatorApiIT extends DeployedHookstile {

    /** The token the POM gives the server (failsafe environmentVariables), as an operator would configure it. */
    private static final String TOKEN = System.getenv("HOOKSTILE_ADMIN_TOKEN");
    /** Every secret the POM configures for the sources; none may appear in an operator answer. */
    private static final List<String> SECRETS = List.of(Webhooks.STANDARD_SECRET, Webhooks.GITHUB_SECRET,
            "it-github-old-secret", Webhooks.STRIPE_SECRET, Webhooks.SHOPIFY_SECRET, Webhooks.SLACK_SECRET,
            Webhooks.TWILIO_TOKEN, Webhooks.META_SECRET, Webhooks.META_VERIFY_TOKEN, Webhooks.INHOUSE_SECRET);

    @BeforeEach
    void operator() {
        assertNotNull(TOKEN, "HOOKSTILE_ADMIN_TOKEN must be set for the integration tests (webhook-war/pom.xml)");
    }

    @Test
    void withoutATokenTheApiAnswers401WithABearerChallenge() {
        HttpResponse<String> response = webhooks.send(api("api/sources"));

        assertUnauthorized(response);
        assertFalse(response.headers().firstValue("WWW-Authenticate").orElseThrow().contains("error="),
                "no error code when no credentials were sent (RFC 6750 3.1)");
    }

    @Test
    void aWrongTokenIsRefusedWith401AndNotEchoed() {
        String wrong = "wrong-" + UUID.randomUUID();

        HttpResponse<String> response = webhooks.send(api("api/sources").header("Authorization", "Bearer " + wrong));

        assertUnauthorized(response);
        assertTrue(response.headers().firstValue("WWW-Authenticate").orElseThrow().contains("error=\"invalid_token\""));
        assertFalse(response.body().contains(wrong), response.body());
    }

    @Test
    void anotherSchemeIsRefusedWith401() {
        assertUnauthorized(webhooks.send(api("api/sources").header("Authorization", "Basic " + TOKEN)));
    }

    @Test
    void everyPathUnderTheApiIsProtected() {
        assertUnauthorized(webhooks.send(api("api/no-such-thing")));
        assertEquals(404, webhooks.send(api("api/no-such-thing").header("Authorization", "Bearer " + TOKEN))
                .statusCode());
    }

    @Test
    void twentyWrongTokensMakeTheAddressWaitWith429EvenForTheRightTokenUntilRetryAfter() {
        assertEquals(200, operatorGet("api/sources").statusCode(), "the right token forgives earlier failures");
        long throttledBefore = failures("throttled");
        long invalidBefore = failures("invalid-token");
        String wrong = "Bearer wrong-" + UUID.randomUUID();

        List<HttpResponse<String>> answers = new java.util.ArrayList<>();
        for (int i = 0; i < 20; i++) {
            answers.add(webhooks.send(api("api/sources").header("Authorization", wrong)));
        }
        HttpResponse<String> rightTokenWhileWaiting = operatorGet("api/sources");

        List<Integer> statuses = answers.stream().map(HttpResponse::statusCode).toList();
        assertEquals(java.util.Collections.nCopies(11, 401), statuses.subList(0, 11),
                "10 free failures, the 11th imposes the wait: " + statuses);
        assertTrue(statuses.stream().allMatch(s -> s == 401 || s == 429), statuses.toString());
        HttpResponse<String> waiting = answers.stream().filter(a -> a.statusCode() == 429).findFirst()
                .orElseThrow(() -> new AssertionError("no 429 in " + statuses));
        assertTooManyFailures(waiting);
        // Sent at once after a 429 of a 1 s wait: the token is not even looked at.
        assertTooManyFailures(rightTokenWhileWaiting);

        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        HttpResponse<String> after = rightTokenWhileWaiting;
        while (after.statusCode() == 429 && System.nanoTime() < deadline) {
            Webhooks.sleep(Duration.ofMillis(200));
            after = operatorGet("api/sources");
        }
        assertEquals(200, after.statusCode(), "the right token works once the wait is over: " + after.body());
        assertEquals(401, webhooks.send(api("api/sources").header("Authorization", wrong)).statusCode(),
                "and it forgave the address: a wrong token is a plain 401 again");
        assertEquals(200, operatorGet("api/sources").statusCode());
        assertTrue(failures("throttled") > throttledBefore, "counted as throttled");
        assertTrue(failures("invalid-token") >= invalidBefore + 12, "counted as invalid-token");
    }

    @Test
    void theTokenListsTheConfiguredSourcesWithoutSecretMaterial() {
        HttpResponse<String> response = operatorGet("api/sources");

        assertEquals(200, response.statusCode(), response.body());
        assertEquals("application/json", response.headers().firstValue("Content-Type").orElse(""));
        Map<String, JsonObject> sources = sources(response);
        assertEquals(List.of("bo", "fwd", "fwddown", "fwdhold", "fwdkey", "fwdlive", "fwdpace", "fx", "gh", "ghbodies", "ghbody", "ghkept", "ghshown", "inhouse",
                        "it", "ord", "pay", "quiet", "shop", "slack", "svix", "swkeys", "tw", "wa"),
                sources.keySet().stream().sorted().toList(), "every source configured for the tests (ItSources)");
        assertEquals(List.of("/customer", "/order/id"), sources.get("it").getJsonArray("searchKeys")
                .getValuesAs(jakarta.json.JsonString.class).stream().map(jakarta.json.JsonString::getString).toList());
        assertEquals(0, sources.get("gh").getJsonArray("searchKeys").size());
        assertEquals(0, sources.get("swkeys").getInt("secretCount"));
        assertEquals(1, sources.get("swkeys").getInt("publicKeyCount"), "a source of public keys only");
        assertEquals("github", sources.get("gh").getString("provider"));
        assertEquals("standard-webhooks", sources.get("it").getString("provider"));
        assertEquals("stripe", sources.get("pay").getString("provider"));
        assertEquals("meta", sources.get("wa").getString("provider"));
        assertEquals(2, sources.get("gh").getInt("secretCount"), "the old and the new secret, in rotation");
        assertEquals(300, sources.get("pay").getInt("toleranceSeconds"));
        // The signing scheme in words, from the provider's code, as the source configures it (issue 38).
        assertEquals("HMAC-SHA256 of the body (X-Hub-Signature-256)", sources.get("gh").getString("signingScheme"));
        assertEquals("HMAC-SHA512 of the body, base64 (X-Signature, after \u201csha512=\u201d)",
                sources.get("inhouse").getString("signingScheme"));
        for (String secret : SECRETS) {
            assertFalse(response.body().contains(secret), "a configured secret is in " + response.body());
        }
        assertFalse(response.body().contains(TOKEN), response.body());
    }

    @Test
    void recordedEventsAreCountedByStatus() {
        long before = completedCount("gh");
        String delivery = UUID.randomUUID().toString();

        HttpResponse<String> accepted = webhooks.send(
                webhooks.github(delivery, "push", "{\"ref\":\"main\"}", Webhooks.GITHUB_SECRET));
        assertEquals(202, accepted.statusCode(), "webhooks need no token: " + accepted.body());
        webhooks.awaitRecorded("gh", delivery, completed(), Duration.ofSeconds(30));

        // At least ours: the test database may be shared with other runs that record gh events at the same time.
        long after = completedCount("gh");
        assertTrue(after >= before + 1, "completed before " + before + ", after " + after);

        // What an operator may do with it, and its signature withheld, said by the server (issue 38).
        HttpResponse<String> detail = operatorGet("api/events/gh/" + delivery);
        assertEquals(200, detail.statusCode(), detail.body());
        JsonObject event = Webhooks.json(detail.body());
        assertTrue(event.getBoolean("finished"), detail.body());
        assertTrue(event.getBoolean("replayable"), detail.body());
        assertEquals("[redacted]", event.getJsonObject("headers").getString("x-hub-signature-256"), detail.body());
        assertEquals("push", event.getJsonObject("headers").getString("x-github-event"), detail.body());
    }

    /** The statuses and what each allows, for the console's filters and replay offers (issue 38). */
    @Test
    void theStatusesAreServedWithWhatEachAllows() {
        HttpResponse<String> response = operatorGet("api/statuses");

        assertEquals(200, response.statusCode(), response.body());
        JsonObject statuses = Webhooks.json(response.body());
        assertEquals("{\"name\":\"received\",\"finished\":false,\"replayable\":false}",
                statuses.getJsonArray("events").get(0).toString());
        assertEquals(List.of("received", "completed", "ignored", "retrying", "dead"), names(statuses, "events"));
        assertEquals(List.of("completed", "ignored", "dead"), statuses.getJsonArray("events").stream()
                .map(JsonValue::asJsonObject).filter(s -> s.getBoolean("replayable"))
                .map(s -> s.getString("name")).toList());
        assertEquals(List.of("pending", "delivered", "dead", "filtered"), names(statuses, "forwardings"));
        assertEquals(List.of("delivered", "dead"), statuses.getJsonArray("forwardings").stream()
                .map(JsonValue::asJsonObject).filter(s -> s.getBoolean("replayable"))
                .map(s -> s.getString("name")).toList());
    }

    private static List<String> names(JsonObject statuses, String kind) {
        return statuses.getJsonArray(kind).stream().map(s -> s.asJsonObject().getString("name")).toList();
    }

    /**
     * Grizzly answers a request that offers h2c (off here) in HTTP/1.1, but sent an answer longer than its 8 KiB
     * output buffer without its type and without a length, ended by closing the connection (UpgradeOfferAnswers).
     */
    @Test
    void anAnswerLongerThanEightKibToAClientOfferingH2cKeepsItsTypeAndLength() {
        HttpResponse<String> response = webhooks.send(api("api/sources").version(HttpClient.Version.HTTP_2)
                .header("Authorization", "Bearer " + TOKEN));

        assertEquals(200, response.statusCode(), response.body());
        byte[] body = response.body().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(body.length > 8192, "an answer longer than the output buffer: " + body.length + " bytes");
        assertEquals("application/json", response.headers().firstValue("Content-Type").orElse(""));
        assertEquals(String.valueOf(body.length), response.headers().firstValue("Content-Length").orElse(""));
    }

    @Test
    void healthAndOpenApiStayOpenAndTheApiIsDescribed() {
        var server = webhooks.server();

        assertEquals(200, server.get("health/ready").statusCode());
        HttpResponse<String> openapi = server.get("openapi");
        assertEquals(200, openapi.statusCode());
        assertTrue(openapi.body().contains("/api/sources"), openapi.body());
        assertTrue(openapi.body().contains("operatorToken"), openapi.body());
    }

    private long completedCount(String source) {
        HttpResponse<String> response = operatorGet("api/sources");
        assertEquals(200, response.statusCode(), response.body());
        return sources(response).get(source).getJsonObject("events").getJsonNumber("completed").longValue();
    }

    private HttpResponse<String> operatorGet(String path) {
        return webhooks.send(api(path).header("Authorization", "Bearer " + TOKEN));
    }

    /** As the JDK's HttpClient asks by default: offering an h2c upgrade on a new plain connection. */
    private HttpRequest.Builder api(String path) {
        return HttpRequest.newBuilder(URI.create(webhooks.base() + path)).timeout(Duration.ofSeconds(30)).GET();
    }

    /** {@code hookstile_operator_auth_failures_total{reason}} as the metrics endpoint shows it now. */
    private long failures(String reason) {
        HttpResponse<String> metrics = webhooks.get("metrics");
        assertEquals(200, metrics.statusCode(), metrics.body());
        return metrics.body().lines()
                .filter(l -> l.startsWith("hookstile_operator_auth_failures_total{")
                        && l.contains("reason=\"" + reason + "\""))
                .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .findFirst().orElseThrow(() -> new AssertionError("no failure counter for " + reason));
    }

    private static void assertTooManyFailures(HttpResponse<String> response) {
        assertEquals(429, response.statusCode(), response.body());
        long retryAfter = Long.parseLong(response.headers().firstValue("Retry-After").orElseThrow());
        assertTrue(retryAfter >= 1 && retryAfter <= 300, "Retry-After " + retryAfter);
        assertEquals("application/problem+json", response.headers().firstValue("Content-Type").orElse("")
                .replace(";charset=UTF-8", ""));
        JsonObject problem = Webhooks.json(response.body());
        assertEquals("urn:hookstile:problem:too-many-failures", problem.getString("type"));
        assertEquals(429, problem.getInt("status"));
    }

    private static Map<String, JsonObject> sources(HttpResponse<String> response) {
        return Webhooks.json(response.body()).getJsonArray("sources").stream()
                .map(JsonValue::asJsonObject)
                .collect(Collectors.toMap(s -> s.getString("name"), s -> s));
    }

    private static void assertUnauthorized(HttpResponse<String> response) {
        assertEquals(401, response.statusCode(), response.body());
        assertTrue(response.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Bearer"),
                response.headers().map().toString());
        assertEquals("application/problem+json", response.headers().firstValue("Content-Type").orElse("")
                .replace(";charset=UTF-8", ""));
        JsonObject problem = Webhooks.json(response.body());
        assertEquals("urn:hookstile:problem:unauthorized", problem.getString("type"));
        assertEquals(401, problem.getInt("status"));
        assertFalse(problem.getString("detail").isBlank());
        assertFalse(response.body().contains(TOKEN), response.body());
    }
}
