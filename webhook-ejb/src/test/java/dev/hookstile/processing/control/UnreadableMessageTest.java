package dev.hookstile.processing.control;

import dev.hookstile.events.entity.ReceivedEvent;
import dev.hookstile.queue.boundary.EventMessage;
import jakarta.jms.JMSException;
import org.apache.activemq.command.ActiveMQBytesMessage;
import org.apache.activemq.command.ActiveMQTextMessage;
import org.apache.activemq.command.MessageId;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What is kept of a message no consumer can read: its bytes whole, a stable identity, a bounded reason. */
class UnreadableMessageTest {

    @Test
    void aDamagedBatchIsARowOfItsOwnUnderTheBrokersMessageIdWithEveryByte() throws Exception {
        byte[] body = {0, 2, 'i', 't', 0, 9, 'c', 'u', 't'};
        var message = bytesMessage(body);
        message.setIntProperty(EventMessage.BATCH, 3);
        message.setIntProperty(EventMessage.EVENTS, 1);
        JMSException failure = assertThrows(JMSException.class, () -> EventMessage.receive(message));

        UnreadableMessage recorded = UnreadableMessage.of(message, failure, "hookstile.events");

        assertEquals(ReceivedEvent.UNREADABLE_SOURCE, recorded.source());
        assertEquals("ID:producer-1:1:1:7", recorded.eventId(), "the same on every redelivery");
        assertArrayEquals(body, recorded.payload(), "read whole, although the consumer had read part of it");
        assertTrue(recorded.reason().contains("hookstile.events"), recorded.reason());
        assertTrue(recorded.headersJson().contains("\"property:hookstileBatch\":\"3\""), recorded.headersJson());
    }

    @Test
    void anEventIdentityInPropertiesIsNotTrusted() throws Exception {
        // As Hookstile's format before the batch: properties naming an event. Nobody writes it now, and what another
        // producer claims is not an identity to record under.
        var message = bytesMessage("{}".getBytes(StandardCharsets.UTF_8));
        message.setStringProperty("source", "gh");
        message.setStringProperty("provider", "github");
        message.setStringProperty("eventId", "delivery-1");
        message.setStringProperty("eventType", "push");
        var failure = assertThrows(IllegalArgumentException.class, () -> EventMessage.receive(message));

        UnreadableMessage recorded = UnreadableMessage.of(message, failure, "hookstile.events");

        assertEquals(ReceivedEvent.UNREADABLE_SOURCE, recorded.source());
        assertEquals("ID:producer-1:1:1:7", recorded.eventId());
        assertEquals("unknown", recorded.provider());
        assertEquals("unknown", recorded.type());
    }

    @Test
    void whatAnotherProducerSendsIsBoundedAndNeverTakenForAnIdentity() throws Exception {
        var message = new ActiveMQTextMessage();
        message.setMessageId(new MessageId("ID:producer-1:1:1:8"));
        message.setText("not an event");
        message.setStringProperty("source", "Not A Source\r\n");
        message.setStringProperty("eventId", "x".repeat(300));
        message.setStringProperty("note", "line\r\nbreak" + "y".repeat(5_000));
        message.setReadOnlyProperties(true);
        message.setReadOnlyBody(true);

        UnreadableMessage recorded = UnreadableMessage.of(message,
                new IllegalArgumentException("bad\r\nline" + "z".repeat(10_000)), "hookstile.events");

        assertEquals(ReceivedEvent.UNREADABLE_SOURCE, recorded.source());
        assertEquals("not an event", new String(recorded.payload(), StandardCharsets.UTF_8));
        assertTrue(recorded.reason().length() <= 4000, "fits last_error");
        assertFalse(recorded.reason().contains("\n"));
        assertTrue(recorded.headersJson().length() < 16_384, "fits headers");
        assertFalse(recorded.headersJson().contains("\\r\\n"), recorded.headersJson());
    }

    private static ActiveMQBytesMessage bytesMessage(byte[] body) throws JMSException {
        var message = new ActiveMQBytesMessage();
        message.setMessageId(new MessageId("ID:producer-1:1:1:7"));
        message.writeBytes(body);
        message.reset();
        return message;
    }
}
