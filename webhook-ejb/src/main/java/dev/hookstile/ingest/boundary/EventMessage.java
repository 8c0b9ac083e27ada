package dev.hookstile.ingest.boundary;

import dev.hookstile.api.WebhookEvent;
import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Session;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReaderFactory;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;

import java.io.StringReader;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The queue's message format, also a contract for back offices that read the queue: a {@code BytesMessage} whose
 * body is the raw request body, byte for byte, with string properties {@code source}, {@code provider},
 * {@code eventId}, {@code eventType}, {@code headers} (a JSON object, signatures redacted) and the long property
 * {@code receivedAt} (epoch milliseconds).
 */
public final class EventMessage {

    // Json.createObjectBuilder() looks the provider up through the ServiceLoader on every call (a fifth of the
    // request CPU under load, profiled): resolve it once.
    private static final JsonProvider JSON = JsonProvider.provider();

    public static final String SOURCE = "source";
    public static final String PROVIDER = "provider";
    public static final String EVENT_ID = "eventId";
    public static final String EVENT_TYPE = "eventType";
    public static final String RECEIVED_AT = "receivedAt";
    public static final String HEADERS = "headers";

    private static final JsonReaderFactory READERS = Json.createReaderFactory(Map.of());

    private EventMessage() {
    }

    static BytesMessage create(Session session, String source, String provider, String eventId, String type,
                               Instant receivedAt, Map<String, String> headers, byte[] body) throws JMSException {
        return create(session, source, provider, eventId, type, receivedAt, headersJson(headers), body);
    }

    static BytesMessage create(Session session, String source, String provider, String eventId, String type,
                                       Instant receivedAt, String headersJson, byte[] body) throws JMSException {
        BytesMessage message = session.createBytesMessage();
        message.writeBytes(body);
        message.setStringProperty(SOURCE, source);
        message.setStringProperty(PROVIDER, provider);
        message.setStringProperty(EVENT_ID, eventId);
        message.setStringProperty(EVENT_TYPE, type);
        message.setLongProperty(RECEIVED_AT, receivedAt.toEpochMilli());
        message.setStringProperty(HEADERS, headersJson);
        return message;
    }

    static String headersJson(Map<String, String> headers) {
        var json = JSON.createObjectBuilder();
        headers.forEach(json::add);
        return json.build().toString();
    }

    /** A message read back: the event, its headers as sent, and the broker's delivery count (1 for the first). */
    public record Received(WebhookEvent event, String headersJson, int deliveryCount) {
    }

    /**
     * Reads a message back whole.
     *
     * @throws JMSException or a {@link RuntimeException} when it is not a message Hookstile wrote
     */
    public static Received receive(Message message) throws JMSException {
        return new Received(read(message), headersJson(message), deliveryCount(message));
    }

    /** The headers property exactly as sent, for storing without re-encoding. */
    public static String headersJson(Message message) throws JMSException {
        String json = message.getStringProperty(HEADERS);
        return json == null ? "{}" : json;
    }

    /** The broker's delivery count of this message, 1 for the first delivery. */
    public static int deliveryCount(Message message) throws JMSException {
        return message.propertyExists("JMSXDeliveryCount") ? Math.max(1, message.getIntProperty("JMSXDeliveryCount")) : 1;
    }

    /** Reads an event back, its attempt number the broker's delivery count (the claim replaces it with the recorded one). */
    public static WebhookEvent read(Message message) throws JMSException {
        if (!(message instanceof BytesMessage bytes)) {
            throw new IllegalArgumentException("expected a BytesMessage, got " + message.getClass().getName());
        }
        byte[] payload = new byte[(int) bytes.getBodyLength()];
        bytes.readBytes(payload);
        int attempt = deliveryCount(message);
        return new WebhookEvent(
                message.getStringProperty(SOURCE),
                message.getStringProperty(PROVIDER),
                message.getStringProperty(EVENT_ID),
                message.getStringProperty(EVENT_TYPE),
                Instant.ofEpochMilli(message.getLongProperty(RECEIVED_AT)),
                attempt,
                parseHeaders(headersJson(message)),
                payload);
    }

    private static Map<String, String> parseHeaders(String json) {
        JsonObject object;
        try (var reader = READERS.createReader(new StringReader(json))) {
            object = reader.readObject();
        }
        var headers = new LinkedHashMap<String, String>();
        for (Map.Entry<String, JsonValue> entry : object.entrySet()) {
            if (entry.getValue() instanceof JsonString value) {
                headers.put(entry.getKey(), value.getString());
            }
        }
        return headers;
    }
}
