package dev.hookstile.ingest.boundary;

import dev.hookstile.it.Deployments;
import dev.hookstile.it.Webhooks;
import jakarta.json.JsonObject;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URI;
import java.net.URL;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ingest contract as a sender meets it: precise statuses with problem details for every refusal, nothing stored
 * for a refused delivery, and health endpoints that report ready.
 */
@ExtendWith(ArquillianExtension.class)
class IngestIT {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.hookstileWithTestHandler();
    }

    @ArquillianResource
    URL base;

    private Webhooks webhooks;

    @BeforeEach
    void sender() {
        webhooks = Webhooks.at(base);
    }

    @Test
    void wrongSignatureIsRefusedWith401AndNothingIsStored() {
        String delivery = UUID.randomUUID().toString();

        HttpResponse<String> response = webhooks.send(webhooks.github(delivery, "push", "{}", "not-the-secret"));

        assertProblem(response, 401, "invalid-signature");
        Webhooks.sleep(Duration.ofSeconds(1));
        assertEquals("absent", webhooks.recorded("gh", delivery).getString("status"));
    }

    @Test
    void unsignedDeliveryIsRefusedWith401() {
        assertProblem(webhooks.send(webhooks.post("gh", "{}").header("X-GitHub-Delivery", "x")), 401,
                "missing-signature");
    }

    @Test
    void unknownSourceIsRefusedWith404() {
        assertProblem(webhooks.send(webhooks.post("no-such-source", "{}")), 404, "unknown-source");
    }

    @Test
    void bodyOverTheLimitIsRefusedWith413() {
        String big = "{\"pad\":\"" + "x".repeat(1024 * 1024) + "\"}";

        assertProblem(webhooks.send(webhooks.standard("it", "big-" + UUID.randomUUID(), big)), 413, "payload-too-large");
    }

    @Test
    void stripeEventWithoutIdIsRefusedWith400() {
        assertProblem(webhooks.send(webhooks.stripe("{\"type\":\"invoice.paid\"}")), 400, "missing-event-id");
    }

    @Test
    void staleStripeTimestampIsRefusedWith401() throws Exception {
        String body = "{\"id\":\"evt_stale\",\"type\":\"x\"}";
        long t = java.time.Instant.now().getEpochSecond() - 3600;
        String v1 = com.stripe.net.Webhook.Util.computeHmacSha256(Webhooks.STRIPE_SECRET, t + "." + body);

        HttpResponse<String> response = webhooks.send(webhooks.post("pay", body)
                .header("Stripe-Signature", "t=" + t + ",v1=" + v1));

        assertProblem(response, 401, "timestamp-out-of-tolerance");
    }

    @Test
    void wrongMethodIsRefusedWith405() {
        HttpResponse<String> response = webhooks.send(
                HttpRequest.newBuilder(URI.create(webhooks.base() + "webhooks/gh")).DELETE());

        assertProblem(response, 405, "method-not-allowed");
    }

    @Test
    void readinessAndLivenessAreUp() {
        var health = webhooks.server();

        HttpResponse<String> ready = health.get("health/ready");
        HttpResponse<String> live = health.get("health/live");

        assertEquals(200, ready.statusCode(), ready.body());
        assertTrue(ready.body().contains("\"broker\""), ready.body());
        assertTrue(ready.body().contains("\"database\""), ready.body());
        assertEquals(200, live.statusCode(), live.body());
    }

    @Test
    void openApiDescribesTheIngestEndpoint() {
        HttpResponse<String> openapi = webhooks.server().get("openapi");

        assertEquals(200, openapi.statusCode(), openapi.body());
        assertTrue(openapi.body().contains("/webhooks/{source}"), openapi.body());
        assertTrue(openapi.body().contains("receiveWebhook"), openapi.body());
    }

    private static void assertProblem(HttpResponse<String> response, int status, String type) {
        assertEquals(status, response.statusCode(), response.body());
        assertEquals("application/problem+json", response.headers().firstValue("Content-Type").orElse(""));
        JsonObject problem = Webhooks.json(response.body());
        assertEquals("urn:hookstile:problem:" + type, problem.getString("type"));
        assertEquals(status, problem.getInt("status"));
        assertTrue(!problem.getString("detail").isBlank());
    }
}
