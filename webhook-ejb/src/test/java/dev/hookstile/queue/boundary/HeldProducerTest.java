package dev.hookstile.queue.boundary;

import dev.hookstile.platform.boundary.ContainerResources;
import dev.hookstile.queue.boundary.EventMessage.Outgoing;
import dev.hookstile.queue.control.SentMessages;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The hand-off's sender holds its connection, session and producer across sends, and a send that fails on what it held
 * gets one more try on a new connection: against a broker faked at the JMS interfaces, which counts what is opened.
 */
class HeldProducerTest {

    @Test
    void sendsOfOneThreadShareOneConnectionSessionAndProducer() throws Exception {
        var broker = new Broker();
        try (EventQueue.HeldProducer producer = queueOn(broker).holdProducer()) {
            for (int i = 0; i < 5; i++) {
                producer.send(ContainerResources.QUEUE_NAME, List.of(event("e" + i, null)));
            }
        }

        assertEquals(1, broker.connectionsOpened);
        assertEquals(1, broker.sessionsOpened);
        assertEquals(1, broker.producersOpened);
        assertEquals(5, broker.stored.size());
        assertEquals(5, broker.counted);
        assertEquals(1, broker.connectionsClosed, "closing the held producer returns its connection");
    }

    @Test
    void aSendThatFailsOnAHeldConnectionIsTriedOnceMoreOnANewOne() throws Exception {
        var broker = new Broker();
        try (EventQueue.HeldProducer producer = queueOn(broker).holdProducer()) {
            producer.send(ContainerResources.QUEUE_NAME, List.of(event("before", null)));
            broker.failingSends = 1;
            producer.send(ContainerResources.QUEUE_NAME, List.of(event("after-restart", null)));
        }

        assertEquals(2, broker.connectionsOpened, "the broken connection was replaced");
        assertEquals(List.of("hookstile.events", "hookstile.events"), broker.stored);
        assertEquals(2, broker.counted);
        assertEquals(2, broker.connectionsClosed);
    }

    @Test
    void aSendThatFailsOnANewConnectionFailsWithoutAnotherTry() {
        var broker = new Broker();
        broker.failingSends = 1;
        try (EventQueue.HeldProducer producer = queueOn(broker).holdProducer()) {
            assertThrows(HandOffFailure.class,
                    () -> producer.send(ContainerResources.QUEUE_NAME, List.of(event("e", null))));

            assertEquals(1, broker.connectionsOpened);
            assertEquals(1, broker.connectionsClosed, "the failed connection is returned at once");
            assertEquals(List.of(), broker.stored);
            assertEquals(0, broker.counted);
        }
    }

    @Test
    void aSecondFailureFailsTheSendAndTheNextSendOpensAgain() throws Exception {
        var broker = new Broker();
        try (EventQueue.HeldProducer producer = queueOn(broker).holdProducer()) {
            producer.send(ContainerResources.QUEUE_NAME, List.of(event("first", null)));
            broker.failingSends = 2;
            assertThrows(HandOffFailure.class,
                    () -> producer.send(ContainerResources.QUEUE_NAME, List.of(event("down", null))));
            producer.send(ContainerResources.QUEUE_NAME, List.of(event("back", null)));
        }

        assertEquals(3, broker.connectionsOpened);
        assertEquals(2, broker.stored.size());
    }

    @Test
    void eventsWithAnOrderKeyGoToTheirQueueAsItsMessageGroup() throws Exception {
        var broker = new Broker();
        Outgoing keyed = event("k1", "customer-7");
        String ordered = EventQueue.queueOf(keyed);
        try (EventQueue.HeldProducer producer = queueOn(broker).holdProducer()) {
            producer.send(ordered, List.of(keyed));
            producer.send(ContainerResources.QUEUE_NAME, List.of(event("plain", null)));
            producer.send(ordered, List.of(event("k2", "customer-7")));
        }

        assertEquals(List.of(ordered, "hookstile.events", ordered), broker.stored);
        assertEquals(List.of(ordered, "", ordered), broker.groups);
        assertEquals(1, broker.producersOpened, "one producer for every queue");
    }

    private static EventQueue queueOn(Broker broker) {
        var queue = new EventQueue();
        queue.handOffFactory = broker.factory();
        queue.queue = broker.queue(ContainerResources.QUEUE_NAME);
        queue.messages = new SentMessages() {
            @Override
            public void sent() {
                broker.counted++;
            }
        };
        return queue;
    }

    private static Outgoing event(String id, String orderKey) {
        return new Outgoing("gh", "github", id, "push", orderKey, Instant.EPOCH, "{}", new byte[] {'{', '}'});
    }

    /** A broker at the JMS interfaces: counts what is opened and closed, stores each message's queue and group. */
    private static final class Broker {
        int connectionsOpened;
        int connectionsClosed;
        int sessionsOpened;
        int producersOpened;
        int failingSends;
        int counted;
        final List<String> stored = new ArrayList<>();
        final List<String> groups = new ArrayList<>();

        ConnectionFactory factory() {
            return fake(ConnectionFactory.class, (proxy, method, args) -> {
                if (method.getName().equals("createConnection")) {
                    connectionsOpened++;
                    return connection();
                }
                return unexpected(method.getName());
            });
        }

        private Connection connection() {
            return fake(Connection.class, (proxy, method, args) -> switch (method.getName()) {
                case "createSession" -> {
                    sessionsOpened++;
                    yield session();
                }
                case "close" -> {
                    connectionsClosed++;
                    yield null;
                }
                default -> unexpected(method.getName());
            });
        }

        private Session session() {
            return fake(Session.class, (proxy, method, args) -> switch (method.getName()) {
                case "createProducer" -> {
                    assertEquals(null, args[0], "a producer without a destination");
                    producersOpened++;
                    yield producer();
                }
                case "createQueue" -> queue((String) args[0]);
                case "createBytesMessage" -> message();
                default -> unexpected(method.getName());
            });
        }

        private MessageProducer producer() {
            return fake(MessageProducer.class, (proxy, method, args) -> {
                if (!method.getName().equals("send") || args.length != 5) {
                    return unexpected(method.getName());
                }
                assertEquals(DeliveryMode.PERSISTENT, args[2]);
                if (failingSends > 0) {
                    failingSends--;
                    throw new JMSException("the broker is gone");
                }
                stored.add(((Queue) args[0]).getQueueName());
                groups.add(((Props) Proxy.getInvocationHandler(args[1])).values.getOrDefault("JMSXGroupID", ""));
                return null;
            });
        }

        Queue queue(String name) {
            return fake(Queue.class, (proxy, method, args) ->
                    method.getName().equals("getQueueName") ? name : unexpected(method.getName()));
        }

        private BytesMessage message() {
            return (BytesMessage) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {BytesMessage.class}, new Props());
        }
    }

    /** A message that keeps its string properties and takes any body. */
    private static final class Props implements InvocationHandler {
        final Map<String, String> values = new HashMap<>();

        @Override
        public Object invoke(Object proxy, java.lang.reflect.Method method, Object[] args) {
            if (method.getName().equals("setStringProperty")) {
                values.put((String) args[0], (String) args[1]);
            }
            return zero(method.getReturnType());
        }
    }

    private static <T> T fake(Class<T> type, InvocationHandler handler) {
        return type.cast(Proxy.newProxyInstance(HeldProducerTest.class.getClassLoader(), new Class<?>[] {type},
                (proxy, method, args) -> switch (method.getName()) {
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    case "toString" -> type.getSimpleName();
                    default -> handler.invoke(proxy, method, args);
                }));
    }

    private static Object unexpected(String method) {
        throw new AssertionError("not expected of the hand-off: " + method);
    }

    private static Object zero(Class<?> type) {
        if (type == boolean.class) {
            return false;
        }
        if (type == long.class) {
            return 0L;
        }
        if (type == int.class || type == short.class || type == byte.class || type == char.class) {
            return type == int.class ? 0 : type == short.class ? (short) 0 : type == byte.class ? (byte) 0 : (char) 0;
        }
        if (type == double.class || type == float.class) {
            return type == double.class ? 0.0 : 0.0f;
        }
        return null;
    }
}
