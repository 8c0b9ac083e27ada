package dev.hookstile.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

import org.apache.activemq.ActiveMQConnectionFactory;
import org.apache.activemq.broker.BrokerFactory;
import org.apache.activemq.broker.BrokerService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedBrokerTest {

    @TempDir
    Path directory;

    @Test
    void aConfirmedPersistentSendSurvivesARestartOfTheBroker() throws Exception {
        BrokerService broker = start();
        try {
            send("evt-1");
        } finally {
            broker.stop();
            broker.waitUntilStopped();
        }
        assertTrue(Files.isDirectory(directory.resolve("kahadb")), "the store lives under <dir>/kahadb");

        broker = start();
        try {
            assertEquals("evt-1", receive());
        } finally {
            broker.stop();
            broker.waitUntilStopped();
        }
    }

    @Test
    void aFullStoreFailsTheSendInsteadOfBlockingIt() throws Exception {
        BrokerService broker = BrokerFactory.createBroker(uri(), false);
        assertTrue(broker.getSystemUsage().isSendFailIfNoSpace());
        assertEquals(EmbeddedBroker.MEMORY_LIMIT, broker.getSystemUsage().getMemoryUsage().getLimit());
        assertEquals(EmbeddedBroker.STORE_LIMIT, broker.getSystemUsage().getStoreUsage().getLimit());
        assertFalse(broker.isUseJmx());
        assertFalse(broker.isAdvisorySupport());
        assertTrue(broker.isPersistent());
    }

    /**
     * The store's threads, which live as long as the broker, are there once it has started, with the context class
     * loader of the thread that started it: not started by the first send, whose thread's class loader they would
     * keep (on Payara Server an application's, through every redeploy: RedeployIT).
     */
    @Test
    void theStoresLongLivedThreadsStartWithTheBrokerNotWithTheFirstSend() throws Exception {
        ClassLoader starter = new java.net.URLClassLoader(new java.net.URL[0], getClass().getClassLoader());
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        Thread.currentThread().setContextClassLoader(starter);
        BrokerService broker;
        try {
            broker = start();
        } finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
        try {
            var storeThreads = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().endsWith("StoreAndDispatch"))
                    .toList();
            assertEquals(java.util.Set.of("ConcurrentQueueStoreAndDispatch", "ConcurrentTopicStoreAndDispatch"),
                    storeThreads.stream().map(Thread::getName).collect(java.util.stream.Collectors.toSet()));
            for (Thread thread : storeThreads) {
                assertTrue(thread.getContextClassLoader() == starter, thread.getName());
            }
        } finally {
            broker.stop();
            broker.waitUntilStopped();
        }
    }

    @Test
    void aRelativeOrForeignUriIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> EmbeddedBroker.directory(URI.create("hookstile:broker")));
        assertThrows(IllegalArgumentException.class, () -> EmbeddedBroker.directory(URI.create("xbean:/tmp/x")));
    }

    private URI uri() {
        return URI.create("hookstile:" + directory.toAbsolutePath());
    }

    private BrokerService start() throws Exception {
        BrokerService broker = BrokerFactory.createBroker(uri(), true);
        broker.waitUntilStarted();
        return broker;
    }

    private static void send(String text) throws Exception {
        try (Connection connection = factory().createConnection()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer producer = session.createProducer(session.createQueue("events"));
            producer.setDeliveryMode(DeliveryMode.PERSISTENT);
            producer.send(session.createTextMessage(text));
        }
    }

    private static String receive() throws Exception {
        try (Connection connection = factory().createConnection()) {
            connection.start();
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            TextMessage message = (TextMessage) session.createConsumer(session.createQueue("events")).receive(5_000);
            assertNotNull(message, "the message sent before the restart");
            return message.getText();
        }
    }

    private static ActiveMQConnectionFactory factory() {
        return new ActiveMQConnectionFactory("vm://localhost?create=false");
    }
}
