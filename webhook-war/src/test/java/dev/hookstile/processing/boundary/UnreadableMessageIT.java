package dev.hookstile.processing.boundary;

import dev.hookstile.it.Deployments;
import dev.hookstile.it.ExternalBroker;
import dev.hookstile.it.ItEnvironment;
import dev.hookstile.it.ServerProcess;
import dev.hookstile.it.Webhooks;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.json.JsonObject;
import org.apache.activemq.ActiveMQConnectionFactory;
import org.junit.jupiter.api.Test;

import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A message on Hookstile's queue that cannot be read as events (a damaged message, another producer) used to be
 * consumed and forgotten: events acknowledged to their senders gone without a trace. It must be recorded
 * {@code dead} with its bytes and the reason, visible in the operator API, counted, and not replayable as an event.
 */
class UnreadableMessageIT {

    private static final Duration RECORDED_WITHIN = Duration.ofSeconds(60);

    @Test
    void aDamagedMessageIsRecordedDeadWithItsBytesAndShownToTheOperator() throws Exception {
        Path work = ItEnvironment.faultWorkDirectory();
        try (var broker = new ExternalBroker(work.resolve("broker")).start();
             var server = new ServerProcess(work, Deployments.exportTo(work.resolve("hookstile-it.war")))) {
            server.with("HOOKSTILE_BROKER_URL", broker.url()).start();
            Webhooks webhooks = server.webhooks();
            long countedBefore = webhooks.counter("hookstile_messages_unreadable_total");

            // The batch format's properties, a body cut off in its first event: no event can be read from it.
            byte[] damaged = ("\u0000\u0002it\u0000\u0008standard" + UUID.randomUUID()).getBytes(StandardCharsets.UTF_8);
            String damagedId = send(broker.url(), session -> {
                BytesMessage message = session.createBytesMessage();
                message.writeBytes(damaged);
                message.setIntProperty("hookstileBatch", 3);
                message.setIntProperty("hookstileEvents", 2);
                return message;
            });
            // Properties naming an event, as another producer might send (and Hookstile's format before the batch
            // did): not Hookstile's format, and not an identity to record under.
            String eventId = "unreadable-" + UUID.randomUUID();
            String claimingId = send(broker.url(), session -> {
                BytesMessage message = session.createBytesMessage();
                message.writeBytes("{\"type\":\"lost\"}".getBytes(StandardCharsets.UTF_8));
                message.setStringProperty("source", "it");
                message.setStringProperty("provider", "standard-webhooks");
                message.setStringProperty("eventId", eventId);
                message.setStringProperty("eventType", "lost");
                return message;
            });

            JsonObject unreadable = awaitEvent(webhooks, "_unreadable", damagedId);
            assertEquals("dead", unreadable.getString("status"));
            assertEquals(Base64.getEncoder().encodeToString(damaged), unreadable.getString("payloadBase64"),
                    "the bytes as they arrived");
            assertTrue(unreadable.getString("lastError").contains("unreadable message on hookstile.events"),
                    unreadable.getString("lastError"));
            assertEquals("3", unreadable.getJsonObject("headers").getString("property:hookstileBatch"));
            assertEquals("dead", unreadable.getJsonArray("history").getJsonObject(0).getString("outcome"));

            JsonObject claiming = awaitEvent(webhooks, "_unreadable", claimingId);
            assertEquals("dead", claiming.getString("status"));
            assertEquals("{\"type\":\"lost\"}", claiming.getString("payload"));
            assertTrue(claiming.getString("lastError").contains("unreadable"), claiming.getString("lastError"));
            assertEquals(404, webhooks.send(webhooks.operator("api/events/it/" + encode(eventId))).statusCode(),
                    "nothing recorded under the identity it claims");

            HttpResponse<String> dead = webhooks.send(webhooks.operator("api/events?source=_unreadable&status=dead"));
            assertEquals(200, dead.statusCode(), dead.body());
            assertTrue(dead.body().contains(damagedId), "listed with the dead events: " + dead.body());

            HttpResponse<String> replay = webhooks.send(webhooks.operator("api/events/_unreadable/"
                    + encode(damagedId) + "/replay").POST(HttpRequest.BodyPublishers.noBody()));
            assertEquals(409, replay.statusCode(), "nothing to process: " + replay.body());

            assertEquals(countedBefore + 2, webhooks.counter("hookstile_messages_unreadable_total"));
        }
    }

    private interface MessageOf {
        Message create(Session session) throws Exception;
    }

    /** Sends one persistent message to the event queue, as another producer on the broker would; its JMS id. */
    private static String send(String brokerUrl, MessageOf content) throws Exception {
        try (Connection connection = new ActiveMQConnectionFactory(brokerUrl).createConnection();
             Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
             MessageProducer producer = session.createProducer(session.createQueue("hookstile.events"))) {
            producer.setDeliveryMode(DeliveryMode.PERSISTENT);
            Message message = content.create(session);
            producer.send(message);
            return message.getJMSMessageID();
        }
    }

    private static JsonObject awaitEvent(Webhooks webhooks, String source, String eventId) {
        String path = "api/events/" + source + "/" + encode(eventId);
        long deadline = System.nanoTime() + RECORDED_WITHIN.toNanos();
        HttpResponse<String> last;
        do {
            last = webhooks.send(webhooks.operator(path));
            if (last.statusCode() == 200) {
                return Webhooks.json(last.body());
            }
            Webhooks.sleep(Duration.ofMillis(200));
        } while (System.nanoTime() < deadline);
        return fail(source + "/" + eventId + " was not recorded within " + RECORDED_WITHIN.toSeconds() + " s: "
                + last.statusCode() + " " + last.body());
    }

    private static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
