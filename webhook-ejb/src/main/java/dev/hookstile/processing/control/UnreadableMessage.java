package dev.hookstile.processing.control;

import dev.hookstile.api.Text;
import dev.hookstile.events.entity.EventBody;
import dev.hookstile.events.entity.ReceivedEvent;
import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import jakarta.json.spi.JsonProvider;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Collections;
import java.util.Enumeration;

/**
 * A message on one of Hookstile's queues that is not an event Hookstile can read, as it is recorded: {@code dead},
 * with its bytes as the payload and why as the error, in a row of its own: source
 * {@value ReceivedEvent#UNREADABLE_SOURCE} (not a name a source can have) and the broker's message id as the event
 * id, so a redelivery of the same message finds its row and records nothing twice. Whatever event identity the
 * message claims is not trusted: it is not a message Hookstile wrote.
 *
 * <p>Whatever the message carries is hostile input: every text is bounded and stored, never interpreted.
 */
public record UnreadableMessage(String source, String eventId, String provider, String type, Instant receivedAt,
                                String headersJson, byte[] payload, String reason) {

    static final String UNKNOWN = "unknown";
    private static final int MAX_ID = Text.MAX_STORED;
    private static final int MAX_NAME = 63;
    private static final int MAX_VALUE = 1024;
    /** The headers column holds 16,384 characters. */
    private static final int MAX_HEADERS = 15_000;
    private static final JsonProvider JSON = JsonProvider.provider();

    /**
     * @param failure why it could not be read
     * @param queue   where it was taken from, for the operator
     */
    public static UnreadableMessage of(Message message, Throwable failure, String queue) {
        String messageId = messageId(message);
        String reason = Failure.bounded("unreadable message on " + queue + " (" + kind(message) + ", JMS id "
                + messageId + "), kept as it arrived and never processed: " + failure.getClass().getSimpleName()
                + ": " + failure.getMessage());
        return new UnreadableMessage(ReceivedEvent.UNREADABLE_SOURCE, messageId, UNKNOWN, UNKNOWN, sentAt(message),
                headersOf(message, queue), bytesOf(message), reason);
    }

    /** The broker's id of the message; it stays the same on every redelivery. */
    private static String messageId(Message message) {
        try {
            String id = message.getJMSMessageID();
            if (id != null && !id.isEmpty()) {
                return bounded(id, MAX_ID);
            }
        } catch (JMSException | RuntimeException e) {
            // below
        }
        // Without an id a redelivery cannot be told apart: its content must be.
        return "sha256-" + EventBody.digestOf(bytesOf(message));
    }

    private static String kind(Message message) {
        return message instanceof BytesMessage ? "BytesMessage" : message instanceof TextMessage ? "TextMessage"
                : message.getClass().getSimpleName();
    }

    private static Instant sentAt(Message message) {
        try {
            long timestamp = message.getJMSTimestamp();
            return timestamp > 0 ? Instant.ofEpochMilli(timestamp) : Instant.now();
        } catch (JMSException | RuntimeException e) {
            return Instant.now();
        }
    }

    /**
     * The body as it arrived: a bytes message's bytes, a text message's text in UTF-8; other kinds (an object message
     * above all: deserializing it would run its sender's classes) keep no body, their kind is in the headers.
     */
    static byte[] bytesOf(Message message) {
        try {
            if (message instanceof BytesMessage bytes) {
                bytes.reset();
                long length = bytes.getBodyLength();
                if (length > Integer.MAX_VALUE - 8) {
                    return new byte[0];
                }
                byte[] body = new byte[(int) length];
                if (length > 0) {
                    bytes.readBytes(body);
                }
                return body;
            }
            if (message instanceof TextMessage text) {
                String body = text.getText();
                return body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
            }
        } catch (JMSException | RuntimeException e) {
            // the body cannot be read either: kept without it, the reason says why the message was unreadable
        }
        return new byte[0];
    }

    /** The message's JMS headers and properties, as text, each bounded. */
    private static String headersOf(Message message, String queue) {
        var json = JSON.createObjectBuilder();
        json.add("hookstile-queue", queue);
        json.add("jms-type", kind(message));
        int size = 64;
        try {
            json.add("jms-message-id", String.valueOf(message.getJMSMessageID()));
            json.add("jms-timestamp", String.valueOf(message.getJMSTimestamp()));
            for (Object name : Collections.list((Enumeration<?>) message.getPropertyNames())) {
                String key = bounded(String.valueOf(name), MAX_NAME);
                String value = bounded(String.valueOf(message.getObjectProperty(String.valueOf(name))), MAX_VALUE);
                size += key.length() + value.length() + 8;
                if (size > MAX_HEADERS) {
                    json.add("truncated", "true");
                    break;
                }
                json.add("property:" + key, value);
            }
        } catch (JMSException | RuntimeException e) {
            json.add("properties-unreadable", e.getClass().getSimpleName());
        }
        return json.build().toString();
    }

    private static String bounded(String text, int max) {
        String oneLine = text.replaceAll("\\p{Cntrl}", "?");
        return oneLine.length() > max ? oneLine.substring(0, max) : oneLine;
    }
}
