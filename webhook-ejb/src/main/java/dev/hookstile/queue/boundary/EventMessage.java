package dev.hookstile.queue.boundary;

import dev.hookstile.api.WebhookEvent;
import dev.hookstile.queue.control.HeadersJson;
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
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The queue's message format, the one every reader of the queue shares. Hookstile writes one {@code BytesMessage} per
 * hand-off, carrying one or more events: the int property {@code hookstileBatch} is the format's version
 * ({@value #VERSION}) and {@code hookstileEvents} the number of events; the body holds each event in turn as:
 * {@code source}, {@code provider}, {@code eventId}, {@code eventType}, {@code orderKey}, {@code traceparent} (each
 * {@code writeUTF}; the order key and the trace context empty for none), {@code receivedAt} (long, epoch
 * milliseconds), the headers (a JSON object, signatures
 * redacted; int length, then UTF-8 bytes) and the raw request body (int length, then the bytes, byte for byte). The
 * events of one delivery that share a body (Meta's batches) carry it once: the first with -2 before the body's length
 * and bytes, each after it -1 in place of them. Version 3, the same without {@code traceparent}, is still read (the
 * messages an upgrade finds on the queue). A message of any other version, or none, is not read: it is recorded
 * {@code dead} with its bytes ({@code UnreadableMessages}), where an operator sees it.
 *
 * <p>Why several events in one message: the broker's cost is per message (a synced journal write, a dispatch, an
 * acknowledgement in a transaction), and so is the consumer's (a delivery, a transaction, a commit). Events that
 * arrive while a hand-off is under way travel together in the next one (ingest's {@code HandOff}).
 */
public final class EventMessage {

    // Json.createObjectBuilder() looks the provider up through the ServiceLoader on every call (a fifth of the
    // request CPU under load, profiled): resolve it once.
    private static final JsonProvider JSON = JsonProvider.provider();

    /** The format's version, on every message Hookstile writes. */
    public static final String BATCH = "hookstileBatch";
    /** The number of events in a message. */
    public static final String EVENTS = "hookstileEvents";
    static final int VERSION = 4;
    /** The version before the trace context, still read. */
    static final int VERSION_WITHOUT_TRACE = 3;
    /** In place of a body's length: the body of the event before it, which the message carries once. */
    private static final int SAME_BODY = -1;
    /** Before a body's length: the delivery's other events share this body. */
    private static final int SHARED_BODY = -2;

    private static final JsonReaderFactory READERS = Json.createReaderFactory(Map.of());

    private EventMessage() {
    }

    /**
     * An event on its way to the queue; {@code orderKey} {@code null} for none; {@code sharedBody} when other events
     * of its delivery carry the same body (the same array); {@code traceParent} the context its tries continue,
     * {@code null} for none.
     */
    public record Outgoing(String source, String provider, String eventId, String type, String orderKey,
                           Instant receivedAt, String headersJson, byte[] body, boolean sharedBody,
                           String traceParent) {

        /** An event without a trace context. */
        public Outgoing(String source, String provider, String eventId, String type, String orderKey,
                        Instant receivedAt, String headersJson, byte[] body, boolean sharedBody) {
            this(source, provider, eventId, type, orderKey, receivedAt, headersJson, body, sharedBody, null);
        }

        /** An event alone with its body. */
        public Outgoing(String source, String provider, String eventId, String type, String orderKey,
                        Instant receivedAt, String headersJson, byte[] body) {
            this(source, provider, eventId, type, orderKey, receivedAt, headersJson, body, false);
        }

        /**
         * What it adds to a message after {@code previous}, roughly: the size bound of a batch counts it. The events
         * of one delivery share its body, which a message carries once.
         */
        public int size(Outgoing previous) {
            return (sharesBodyWith(previous) ? 0 : body.length) + headersJson.length() + eventId.length()
                    + type.length() + (orderKey == null ? 0 : orderKey.length())
                    + (traceParent == null ? 0 : traceParent.length()) + 64;
        }

        boolean sharesBodyWith(Outgoing previous) {
            return previous != null && previous.body == body;
        }
    }

    static BytesMessage create(Session session, List<Outgoing> events) throws JMSException {
        BytesMessage message = session.createBytesMessage();
        Outgoing previous = null;
        for (Outgoing event : events) {
            message.writeUTF(event.source());
            message.writeUTF(event.provider());
            message.writeUTF(event.eventId());
            message.writeUTF(event.type());
            message.writeUTF(event.orderKey() == null ? "" : event.orderKey());
            message.writeUTF(event.traceParent() == null ? "" : event.traceParent());
            message.writeLong(event.receivedAt().toEpochMilli());
            byte[] headers = event.headersJson().getBytes(StandardCharsets.UTF_8);
            message.writeInt(headers.length);
            message.writeBytes(headers);
            if (event.sharesBodyWith(previous)) {
                message.writeInt(SAME_BODY);
            } else {
                if (event.sharedBody()) {
                    message.writeInt(SHARED_BODY);
                }
                message.writeInt(event.body().length);
                message.writeBytes(event.body());
            }
            previous = event;
        }
        message.setIntProperty(BATCH, VERSION);
        message.setIntProperty(EVENTS, events.size());
        return message;
    }

    /** The headers an event keeps, as the JSON object the message and the event's record carry. */
    public static String headersJson(Map<String, String> headers) {
        var json = JSON.createObjectBuilder();
        headers.forEach(json::add);
        return json.build().toString();
    }

    /**
     * An event read back: the event, its headers as sent, the broker's delivery count (1 for the first), and whether
     * other events of its delivery share its body (the same array when they travel in one message).
     */
    public record Received(WebhookEvent event, String headersJson, int deliveryCount, boolean sharedBody) {
    }

    /**
     * Reads a message back whole: every event it carries, in the order they were queued.
     *
     * @throws JMSException or a {@link RuntimeException} when it is not a message Hookstile wrote
     */
    public static List<Received> receive(Message message) throws JMSException {
        int deliveryCount = deliveryCount(message);
        int version = message.propertyExists(BATCH) ? message.getIntProperty(BATCH) : 0;
        if ((version != VERSION && version != VERSION_WITHOUT_TRACE) || !(message instanceof BytesMessage bytes)) {
            throw new IllegalArgumentException("not a message of version " + VERSION + ": " + message);
        }
        int count = message.getIntProperty(EVENTS);
        if (count < 1) {
            throw new IllegalArgumentException("a batch of " + count + " events");
        }
        var events = new ArrayList<Received>(count);
        for (int i = 0; i < count; i++) {
            String source = bytes.readUTF();
            String provider = bytes.readUTF();
            String eventId = bytes.readUTF();
            String type = bytes.readUTF();
            String orderKey = bytes.readUTF();
            String traceParent = version == VERSION ? bytes.readUTF() : "";
            Instant receivedAt = Instant.ofEpochMilli(bytes.readLong());
            String headersJson = new String(readBlock(bytes), StandardCharsets.UTF_8);
            Received previous = events.isEmpty() ? null : events.get(events.size() - 1);
            byte[] payload;
            boolean shared;
            int length = bytes.readInt();
            if (length == SAME_BODY && previous != null) {
                payload = previous.event().payload();
                shared = true;
            } else if (length == SHARED_BODY) {
                payload = readBlock(bytes);
                shared = true;
            } else {
                payload = readBlock(bytes, length);
                shared = false;
            }
            events.add(new Received(new WebhookEvent(source, provider, eventId, type, receivedAt, deliveryCount,
                    parseHeaders(headersJson), payload, orderKey.isEmpty() ? null : orderKey, false,
                    traceParent.isEmpty() ? null : traceParent), headersJson,
                    deliveryCount, shared));
        }
        return events;
    }

    private static byte[] readBlock(BytesMessage message) throws JMSException {
        return readBlock(message, message.readInt());
    }

    private static byte[] readBlock(BytesMessage message, int length) throws JMSException {
        if (length < 0 || length > message.getBodyLength()) {
            throw new IllegalArgumentException("a block of " + length + " bytes in a message of "
                    + message.getBodyLength());
        }
        byte[] block = new byte[length];
        if (length > 0 && message.readBytes(block) != length) {
            throw new IllegalArgumentException("a block cut short");
        }
        return block;
    }

    /** The broker's delivery count of this message, 1 for the first delivery. */
    public static int deliveryCount(Message message) throws JMSException {
        return message.propertyExists("JMSXDeliveryCount") ? Math.max(1, message.getIntProperty("JMSXDeliveryCount")) : 1;
    }

    private static Map<String, String> parseHeaders(String json) {
        Map<String, String> flat = HeadersJson.parse(json);
        if (flat != null) {
            return flat;
        }
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
