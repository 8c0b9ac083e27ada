package dev.hookstile.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

import javax.xml.parsers.DocumentBuilderFactory;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The resource adapter as the build ships it (target/runtime/activemq-rar.rar), loaded as Payara loads it: its own
 * jars, and from the container only the Jakarta APIs. What it carries is what Hookstile runs and nothing else (every
 * jar shipped is one more to patch: docs/security.md, "Third-party components"), ActiveMQ at the build's version.
 */
class ResourceAdapterArchiveIT {

    private static final Path RAR = Path.of(System.getProperty("hookstile.it.rar"));
    private static final String ACTIVEMQ = System.getProperty("hookstile.it.activemq.version");

    /** Jars nothing in Hookstile runs: Spring/XBean (EmbeddedBroker builds the broker), log4j (logging goes to
     *  java.util.logging, Payara's log), Jackson (only the broker's JMX views, which are off), other protocols,
     *  the JMS pool (the container pools), and the Jakarta APIs the container provides. */
    private static final List<String> NOT_SHIPPED = List.of("log4j-", "jackson-", "spring-", "xbean-", "micrometer-",
            "commons-logging-", "activemq-spring-", "activemq-amqp-", "proton-j-", "activemq-mqtt-", "mqtt-client-",
            "hawtdispatch-", "activemq-jms-pool-", "activemq-pool-", "commons-pool2-", "activemq-jaas-", "jakarta.");

    @TempDir
    static Path work;

    private static List<String> entries;
    private static URLClassLoader adapter;

    @BeforeAll
    static void unpack() throws IOException {
        assertTrue(Files.isRegularFile(RAR), "the build assembles " + RAR);
        List<URL> jars = new ArrayList<>();
        entries = new ArrayList<>();
        try (var zip = new ZipFile(RAR.toFile())) {
            for (var entry : zip.stream().toList()) {
                entries.add(entry.getName());
                if (entry.getName().endsWith(".jar")) {
                    Path jar = work.resolve(entry.getName());
                    try (InputStream in = zip.getInputStream(entry)) {
                        Files.copy(in, jar);
                    }
                    jars.add(jar.toUri().toURL());
                }
            }
        }
        adapter = new URLClassLoader("activemq-rar", jars.toArray(URL[]::new), new ContainerApis());
    }

    @AfterAll
    static void close() throws IOException {
        adapter.close();
    }

    @Test
    void shipsActiveMqAtTheBuildsVersionOnly() {
        for (String artifact : List.of("activemq-ra", "activemq-broker", "activemq-client", "activemq-kahadb-store")) {
            assertTrue(entries.contains(artifact + "-" + ACTIVEMQ + ".jar"), artifact + " " + ACTIVEMQ + " in " + entries);
        }
        jars().filter(jar -> jar.startsWith("activemq-"))
                .forEach(jar -> assertTrue(jar.endsWith("-" + ACTIVEMQ + ".jar"), jar + " is not ActiveMQ " + ACTIVEMQ));
    }

    @Test
    void shipsNothingHookstileDoesNotRun() {
        jars().forEach(jar -> NOT_SHIPPED.forEach(
                prefix -> assertFalse(jar.startsWith(prefix), jar + " is shipped; Hookstile does not use it")));
        assertFalse(entries.contains("log4j2.properties"), "a log4j configuration without log4j");
        assertFalse(entries.contains("broker-config.xml"), "a Spring broker XML nothing reads");
    }

    @Test
    void everyClassTheDescriptorNamesComesFromTheAdapter() throws Exception {
        Element descriptor;
        try (var zip = new ZipFile(RAR.toFile())) {
            var entry = zip.getEntry("META-INF/ra.xml");
            assertNotNull(entry, "the adapter's deployment descriptor, META-INF/ra.xml");
            var factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            descriptor = factory.newDocumentBuilder().parse(zip.getInputStream(entry)).getDocumentElement();
        }
        NodeList all = descriptor.getElementsByTagNameNS("*", "*");
        int named = 0;
        for (int i = 0; i < all.getLength(); i++) {
            var element = (Element) all.item(i);
            String name = element.getTextContent().strip();
            if (element.getLocalName().endsWith("-class")) {
                assertSame(adapter, Class.forName(name, false, adapter).getClassLoader(), name);
                named++;
            } else if (element.getLocalName().endsWith("-interface") || element.getLocalName().endsWith("-type")
                    && name.startsWith("jakarta.")) {
                Class.forName(name, false, adapter);
            }
        }
        assertTrue(named >= 5, "the descriptor names the adapter's classes: " + named);
    }

    @Test
    void theEmbeddedBrokerRunsFromTheAdapterAloneAndLogsToJavaUtilLogging() throws Exception {
        List<LogRecord> records = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                records.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger activemq = Logger.getLogger("org.apache.activemq");
        activemq.addHandler(capture);
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(adapter);
        try {
            Class<?> brokers = adapter.loadClass("org.apache.activemq.broker.BrokerFactory");
            Object broker = brokers.getMethod("createBroker", URI.class)
                    .invoke(null, URI.create(EmbeddedBroker.SCHEME + ":" + work.resolve("broker")));
            broker.getClass().getMethod("start").invoke(broker);
            try {
                var factory = (ConnectionFactory) adapter.loadClass("org.apache.activemq.ActiveMQConnectionFactory")
                        .getConstructor(String.class).newInstance("vm://localhost?create=false");
                try (Connection connection = factory.createConnection()) {
                    connection.start();
                    Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                    var queue = session.createQueue("hookstile.archive");
                    MessageProducer producer = session.createProducer(queue);
                    producer.setDeliveryMode(DeliveryMode.PERSISTENT);
                    producer.send(session.createTextMessage("evt-1"));
                    MessageConsumer consumer = session.createConsumer(queue);
                    var received = (TextMessage) consumer.receive(10_000);
                    assertNotNull(received, "the message sent through the embedded broker");
                    assertEquals("evt-1", received.getText());
                }
            } finally {
                broker.getClass().getMethod("stop").invoke(broker);
                broker.getClass().getMethod("waitUntilStopped").invoke(broker);
            }
        } finally {
            thread.setContextClassLoader(previous);
            activemq.removeHandler(capture);
        }
        assertTrue(records.stream().anyMatch(record -> record.getLevel() == Level.INFO
                        && record.getLoggerName().startsWith("org.apache.activemq.broker")
                        && record.getMessage().contains("Apache ActiveMQ " + ACTIVEMQ)),
                "the broker's start is logged to java.util.logging, which is Payara's log: " + records.stream()
                        .map(LogRecord::getMessage).toList());
    }

    private static Stream<String> jars() {
        return entries.stream().filter(name -> name.endsWith(".jar"));
    }

    /** What Payara gives a resource adapter from outside its archive: the JDK and the Jakarta EE APIs. */
    private static final class ContainerApis extends ClassLoader {

        ContainerApis() {
            super("container", ClassLoader.getPlatformClassLoader());
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            if (name.startsWith("jakarta.")) {
                return ResourceAdapterArchiveIT.class.getClassLoader().loadClass(name);
            }
            throw new ClassNotFoundException(name);
        }
    }
}
