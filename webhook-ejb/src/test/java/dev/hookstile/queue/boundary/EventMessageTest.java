package dev.hookstile.queue.boundary;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.Session;
import org.apache.activemq.command.ActiveMQBytesMessage;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EventMessageTest {

    /** A session that only makes messages, ActiveMQ's own, as the broker would carry them. */
    private static final Session SESSION = (Session) Proxy.newProxyInstance(EventMessageTest.class.getClassLoader(),
            new Class<?>[]{Session.class}, (proxy, method, args) -> {
                if (method.getName().equals("createBytesMessage")) {
                    return new ActiveMQBytesMessage();
                }
                throw new UnsupportedOperationException(method.getName());
            });

    private static final Instant RECEIVED = Instant.parse("2026-11-24T10:15:30.123Z");

    @Test
    void everyEventOfAMessageIsReadBackAsQueued() throws JMSException {
        byte[] binary = {0, (byte) 0xff, 10, 13, 0x7f};
        var queued = List.of(
                new EventMessage.Outgoing("gh", "github", "id-1", "push", null, RECEIVED,
                        "{\"x-github-event\":\"push\"}", "{\"a\":1}".getBytes(StandardCharsets.UTF_8)),
                new EventMessage.Outgoing("pay", "stripe", "évt-2 ✓", "invoice.paid", "cus_42 ✓", RECEIVED.plusSeconds(1),
                        "{}", binary),
                new EventMessage.Outgoing("gh", "github", "id-3", "ping", null, RECEIVED, "{}", new byte[0]));

        List<EventMessage.Received> read = EventMessage.receive(readable(EventMessage.create(SESSION, queued)));

        assertEquals(3, read.size());
        for (int i = 0; i < queued.size(); i++) {
            EventMessage.Outgoing sent = queued.get(i);
            EventMessage.Received got = read.get(i);
            assertEquals(sent.source(), got.event().source());
            assertEquals(sent.provider(), got.event().provider());
            assertEquals(sent.eventId(), got.event().eventId());
            assertEquals(sent.type(), got.event().type());
            assertEquals(sent.orderKey(), got.event().orderKey());
            assertEquals(sent.receivedAt(), got.event().receivedAt());
            assertEquals(sent.headersJson(), got.headersJson());
            assertArrayEquals(sent.body(), got.event().payload());
            assertEquals(1, got.deliveryCount());
        }
        assertEquals("push", read.get(0).event().header("x-github-event"));
    }

    @Test
    void theEventsOfOneDeliveryCarryTheirSharedBodyOnce() throws JMSException {
        byte[] body = new byte[10_000];
        java.util.Arrays.fill(body, (byte) 'x');
        var queued = List.of(
                new EventMessage.Outgoing("wa", "meta", "m-1", "messages", null, RECEIVED, "{}", body, true),
                new EventMessage.Outgoing("wa", "meta", "m-2", "messages", null, RECEIVED, "{}", body, true),
                new EventMessage.Outgoing("wa", "meta", "m-3", "messages", null, RECEIVED, "{}", body, true));

        BytesMessage message = readable(EventMessage.create(SESSION, queued));

        assertEquals(true, message.getBodyLength() < 11_000, "one copy of the body: " + message.getBodyLength());
        List<EventMessage.Received> read = EventMessage.receive(message);
        assertEquals(List.of("m-1", "m-2", "m-3"), read.stream().map(r -> r.event().eventId()).toList());
        read.forEach(r -> assertArrayEquals(body, r.event().payload()));
        read.forEach(r -> assertTrue(r.sharedBody(), "the first event of the run is known to share it too"));
        assertEquals(queued.get(0).size(null) - body.length, queued.get(1).size(queued.get(0)),
                "a shared body counts once toward the message's size");
    }

    @Test
    void anEventAloneKeepsItsBodyToItself() throws JMSException {
        byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
        var queued = List.of(
                new EventMessage.Outgoing("gh", "github", "a", "push", null, RECEIVED, "{}", body),
                new EventMessage.Outgoing("gh", "github", "b", "push", null, RECEIVED, "{}", body.clone()));

        List<EventMessage.Received> read = EventMessage.receive(readable(EventMessage.create(SESSION, queued)));

        read.forEach(r -> assertFalse(r.sharedBody(), r.event().eventId()));
    }

    @Test
    void aSharedBodyWithNothingBeforeItIsRefused() throws JMSException {
        BytesMessage message = eventHead("wa", "meta", "m-1", "messages", "");
        message.writeInt(2);
        message.writeBytes("{}".getBytes(StandardCharsets.UTF_8));
        message.writeInt(-1);
        message.setIntProperty(EventMessage.BATCH, 3);
        message.setIntProperty(EventMessage.EVENTS, 1);

        BytesMessage hostile = readable(message);
        assertThrows(IllegalArgumentException.class, () -> EventMessage.receive(hostile));
    }

    @Test
    void eachEventCarriesItsTraceContextThroughTheQueue() throws JMSException {
        String traced = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        var queued = List.of(
                new EventMessage.Outgoing("gh", "github", "id-1", "push", null, RECEIVED, "{}", new byte[]{1}, false,
                        traced),
                new EventMessage.Outgoing("gh", "github", "id-2", "push", "key", RECEIVED, "{}", new byte[]{2}));

        List<EventMessage.Received> read = EventMessage.receive(readable(EventMessage.create(SESSION, queued)));

        assertEquals(traced, read.get(0).event().traceParent());
        assertNull(read.get(1).event().traceParent());
        assertEquals("key", read.get(1).event().orderKey());
        assertArrayEquals(new byte[]{2}, read.get(1).event().payload());
    }

    @Test
    void aMessageOfTheVersionBeforeTraceContextIsStillRead() throws JMSException {
        // What an upgrade finds on the queue: version 3, without the trace context after the order key.
        BytesMessage message = eventHead("gh", "github", "id-1", "push", "");
        byte[] headers = "{\"x-github-event\":\"push\"}".getBytes(StandardCharsets.UTF_8);
        message.writeInt(headers.length);
        message.writeBytes(headers);
        message.writeInt(3);
        message.writeBytes(new byte[]{7, 8, 9});
        message.setIntProperty(EventMessage.BATCH, 3);
        message.setIntProperty(EventMessage.EVENTS, 1);

        List<EventMessage.Received> read = EventMessage.receive(readable(message));

        assertEquals(1, read.size());
        assertEquals("id-1", read.get(0).event().eventId());
        assertEquals("push", read.get(0).event().header("x-github-event"));
        assertArrayEquals(new byte[]{7, 8, 9}, read.get(0).event().payload());
        assertNull(read.get(0).event().traceParent());
    }

    @Test
    void aMessageOfAnyOtherVersionIsNotRead() throws JMSException {
        BytesMessage unversioned = new ActiveMQBytesMessage();
        unversioned.writeBytes("{\"b\":2}".getBytes(StandardCharsets.UTF_8));
        unversioned.setStringProperty("source", "gh");
        BytesMessage older = EventMessage.create(SESSION, List.of(new EventMessage.Outgoing("gh", "github", "id-1",
                "push", null, RECEIVED, "{}", new byte[]{1, 2, 3})));
        older.setIntProperty(EventMessage.BATCH, 2);

        BytesMessage first = readable(unversioned);
        BytesMessage second = readable(older);
        assertThrows(IllegalArgumentException.class, () -> EventMessage.receive(first));
        assertThrows(IllegalArgumentException.class, () -> EventMessage.receive(second));
    }

    @Test
    void aBatchThatClaimsMoreEventsThanItHoldsIsUnreadable() throws JMSException {
        BytesMessage message = EventMessage.create(SESSION, List.of(new EventMessage.Outgoing("gh", "github", "id-1",
                "push", null, RECEIVED, "{}", new byte[]{1, 2, 3})));
        message.setIntProperty(EventMessage.EVENTS, 2);

        BytesMessage cut = readable(message);
        assertThrows(JMSException.class, () -> EventMessage.receive(cut));
    }

    @Test
    void aBlockLongerThanTheMessageIsRefusedBeforeAnythingIsAllocated() throws JMSException {
        BytesMessage message = eventHead("gh", "github", "id-1", "push", "");
        message.writeInt(Integer.MAX_VALUE);
        message.setIntProperty(EventMessage.BATCH, 3);
        message.setIntProperty(EventMessage.EVENTS, 1);

        BytesMessage hostile = readable(message);
        assertThrows(IllegalArgumentException.class, () -> EventMessage.receive(hostile));
    }

    /**
     * A message written by hand up to an event's headers: its names, then the order key when given, then the receive
     * time.
     */
    private static BytesMessage eventHead(String source, String provider, String eventId, String type,
                                          String orderKey) throws JMSException {
        BytesMessage message = new ActiveMQBytesMessage();
        message.writeUTF(source);
        message.writeUTF(provider);
        message.writeUTF(eventId);
        message.writeUTF(type);
        if (orderKey != null) {
            message.writeUTF(orderKey);
        }
        message.writeLong(RECEIVED.toEpochMilli());
        return message;
    }

    private static BytesMessage readable(BytesMessage written) throws JMSException {
        written.reset();
        return written;
    }
}
