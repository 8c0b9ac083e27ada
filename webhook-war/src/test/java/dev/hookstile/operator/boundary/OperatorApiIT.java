package dev.hookstile.operator.boundary;

import dev.hookstile.it.DeployedHookstile;
import dev.hookstile.it.Webhooks;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
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
    void theTokenListsTheConfiguredSourcesWithoutSecretMaterial() {
        HttpResponse<String> response = operatorGet("api/sources");

        assertEquals(200, response.statusCode(), response.body());
        assertEquals("application/json", response.headers().firstValue("Content-Type").orElse(""));
        Map<String, JsonObject> sources = sources(response);
        assertEquals(List.of("bo", "fwd", "fwddown", "fx", "gh", "ghbody", "inhouse", "it", "ord", "pay", "quiet", "shop", "slack", "svix", "tw", "wa"),
                sources.keySet().stream().sorted().toList(), "every source configured for the tests (webhook-war/pom.xml)");
        assertEquals("github", sources.get("gh").getString("provider"));
        assertEquals("standard-webhooks", sources.get("it").getString("provider"));
        assertEquals("stripe", sources.get("pay").getString("provider"));
        assertEquals("meta", sources.get("wa").getString("provider"));
        assertEquals(2, sources.get("gh").getInt("secretCount"), "the old and the new secret, in rotation");
        assertEquals(300, sources.get("pay").getInt("toleranceSeconds"));
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

    private HttpRequest.Builder api(String path) {
        return HttpRequest.newBuilder(URI.create(webhooks.base() + path)).timeout(Duration.ofSeconds(30)).GET();
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
