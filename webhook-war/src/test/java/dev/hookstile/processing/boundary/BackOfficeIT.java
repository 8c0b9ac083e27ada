package dev.hookstile.processing.boundary;

import dev.hookstile.it.DeployedHookstile;
import dev.hookstile.it.Webhooks;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;

import static dev.hookstile.it.Webhooks.completed;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Publishing to a back office over JMS (the source {@code bo} in webhook-war/pom.xml: its {@code invoice.*} events
 * to {@code queue:backoffice.invoices}), read from the queue as a back office would.
 */
class BackOfficeIT extends DeployedHookstile {

    private static final Duration PROCESSED = Duration.ofSeconds(30);
    private static final String QUEUE = "backoffice.invoices";

    @Test
    void aProcessedEventIsPublishedOnceWithItsPropertiesAndTheSendersTrace() {
        String id = "inv-" + UUID.randomUUID();
        String body = "{\"type\":\"invoice.paid\",\"amount\":4200}";

        // The sender's trace: with no exporter configured, passed on unchanged to the handler and the back office.
        String traceParent = "00-" + UUID.randomUUID().toString().replace("-", "") + "-00f067aa0ba902b7-01";

        assertEquals(202, webhooks.send(webhooks.standard("bo", id, body).header("traceparent", traceParent))
                .statusCode());
        JsonObject recorded = webhooks.awaitRecorded("bo", id, completed(), PROCESSED);

        assertEquals(traceParent, recorded.getJsonArray("effectTraces").getString(0), "the handler's traceParent()");
        JsonArray messages = take(id, 10_000);
        assertEquals(1, messages.size(), messages.toString());
        JsonObject message = messages.getJsonObject(0);
        assertEquals("bo", message.getString("source"));
        assertEquals(id, message.getString("eventId"));
        assertEquals("invoice.paid", message.getString("type"));
        assertEquals("standard-webhooks", message.getString("provider"));
        assertEquals(body, message.getString("body"), "the original body as text");
        assertEquals(traceParent, message.getString("traceparent"));
    }

    @Test
    void aTryThatRollsBackTakesItsMessageBackAndTheTryThatCommitsPublishesOnce() {
        // The test handler fails attempt 1 after the message was sent in the try's transaction.
        String id = "fail-once-" + UUID.randomUUID();

        assertEquals(202, webhooks.send(webhooks.standard("bo", id, "{\"type\":\"invoice.created\"}")).statusCode());
        JsonObject recorded = webhooks.awaitRecorded("bo", id, completed(), PROCESSED);
        assertEquals(2, recorded.getInt("attempts"), recorded.toString());

        assertEquals(1, take(id, 10_000).size(), "one message: the first try's went back with its rollback");
    }

    @Test
    void aDeadEventPublishesNothing() {
        String id = "broken-" + UUID.randomUUID();

        assertEquals(202, webhooks.send(webhooks.standard("bo", id, "{\"type\":\"invoice.paid\"}")).statusCode());
        webhooks.awaitRecorded("bo", id, state -> "dead".equals(state.getString("status")), PROCESSED);

        assertEquals(0, take(id, 3_000).size());
    }

    @Test
    void eventsOfOtherTypesAreNotPublished() {
        String id = "cust-" + UUID.randomUUID();

        assertEquals(202, webhooks.send(webhooks.standard("bo", id, "{\"type\":\"customer.updated\"}")).statusCode());
        webhooks.awaitRecorded("bo", id, completed(), PROCESSED);

        assertEquals(0, take(id, 3_000).size(), "customer.updated is outside invoice.*");
    }

    private JsonArray take(String eventId, long waitMs) {
        HttpResponse<String> response = webhooks.get("it/backoffice/" + QUEUE + "/" + eventId + "?waitMs=" + waitMs);
        assertEquals(200, response.statusCode(), response.body());
        return Webhooks.jsonArray(response.body());
    }
}
