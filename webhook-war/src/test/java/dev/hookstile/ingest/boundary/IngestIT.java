package dev.hookstile.ingest.boundary;

import dev.hookstile.it.DeployedHookstile;
import dev.hookstile.it.Webhooks;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The service around ingest: health endpoints that report ready and the published OpenAPI contract. Refusals are
 * in {@link HostileInputIT}, each provider end to end in {@link ProvidersIT}.
 */
class IngestIT extends DeployedHookstile {

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
        assertTrue(openapi.body().contains("/api/events/{source}/{eventId}/replay"), openapi.body());
        assertTrue(openapi.body().contains("startReplay"), openapi.body());
    }
}
