package dev.hookstile.health.boundary;

import dev.hookstile.platform.boundary.SchemaMigration;
import dev.hookstile.queue.boundary.EventQueue;
import jakarta.jms.JMSException;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code /health/ready} is public: however often it is called, the database and the broker each see at most one
 * round trip a second; and a broker that goes away still shows as DOWN within that second.
 */
class ReadinessRoundTripsTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    @BeforeAll
    static void responses() {
        HealthCheckResponse.setResponseProvider(SimpleBuilder::new);
    }

    @Test
    void manyCallsWithinASecondCostTheBrokerOneRoundTrip() {
        var pings = new AtomicInteger();
        var health = brokerHealth(pings, new AtomicBoolean(true));

        for (int i = 0; i < 100; i++) {
            assertEquals(HealthCheckResponse.Status.UP, health.call().getStatus());
            now.addAndGet(TimeUnit.MILLISECONDS.toNanos(5));
        }

        assertEquals(1, pings.get(), "100 calls within 0.5 s");
    }

    @Test
    void manyCallsWithinASecondCostTheDatabaseOneRoundTrip() {
        var connections = new AtomicInteger();
        var health = new DatabaseHealth();
        health.dataSource = countingDatabase(connections);
        health.schema = new SchemaMigration() {
            @Override
            public boolean migrated() {
                return true;
            }
        };
        health.clock(now::get);

        for (int i = 0; i < 100; i++) {
            assertEquals(HealthCheckResponse.Status.UP, health.call().getStatus());
            now.addAndGet(TimeUnit.MILLISECONDS.toNanos(5));
        }

        assertEquals(1, connections.get(), "100 calls within 0.5 s");
    }

    @Test
    void aBrokerThatGoesAwayIsDownOnceTheAnswerIsASecondOld() {
        var pings = new AtomicInteger();
        var up = new AtomicBoolean(true);
        var health = brokerHealth(pings, up);
        assertEquals(HealthCheckResponse.Status.UP, health.call().getStatus());

        up.set(false);
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(500));
        assertEquals(HealthCheckResponse.Status.UP, health.call().getStatus(), "within the second: the last answer");
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(501));

        assertEquals(HealthCheckResponse.Status.DOWN, health.call().getStatus());
        assertEquals(2, pings.get());
    }

    @Test
    void callsWhileOneAsksGetTheLastAnswerAtOnce() throws Exception {
        var pings = new AtomicInteger();
        var block = new AtomicBoolean();
        var asking = new CountDownLatch(1);
        var release = new CountDownLatch(1);
        var health = new BrokerHealth();
        health.queue = new EventQueue() {
            @Override
            public void ping() throws JMSException {
                pings.incrementAndGet();
                if (block.get()) {
                    asking.countDown();
                    try {
                        release.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    throw new JMSException("stopped answering");
                }
            }
        };
        health.clock(now::get);
        health.call();
        now.addAndGet(TimeUnit.SECONDS.toNanos(2));
        block.set(true);
        Thread first = new Thread(health::call);
        first.start();
        try {
            assertTrue(asking.await(5, TimeUnit.SECONDS));

            // A broker that stopped answering holds the one call that asks, not every prober.
            for (int i = 0; i < 10; i++) {
                assertEquals(HealthCheckResponse.Status.UP, health.call().getStatus());
            }
            assertEquals(2, pings.get());
        } finally {
            release.countDown();
            first.join(5_000);
        }
        assertEquals(HealthCheckResponse.Status.DOWN, health.call().getStatus(), "its answer once it came");
    }

    private BrokerHealth brokerHealth(AtomicInteger pings, AtomicBoolean up) {
        var health = new BrokerHealth();
        health.queue = new EventQueue() {
            @Override
            public void ping() throws JMSException {
                pings.incrementAndGet();
                if (!up.get()) {
                    throw new JMSException("Connection refused");
                }
            }
        };
        health.clock(now::get);
        return health;
    }

    private static DataSource countingDatabase(AtomicInteger connections) {
        Connection connection = (Connection) Proxy.newProxyInstance(ReadinessRoundTripsTest.class.getClassLoader(),
                new Class<?>[]{Connection.class}, (self, method, args) -> switch (method.getName()) {
                    case "isValid" -> true;
                    default -> null;
                });
        return (DataSource) Proxy.newProxyInstance(ReadinessRoundTripsTest.class.getClassLoader(),
                new Class<?>[]{DataSource.class}, (self, method, args) -> {
                    if (method.getName().equals("getConnection")) {
                        connections.incrementAndGet();
                        return connection;
                    }
                    throw new SQLException("not faked: " + method.getName());
                });
    }

    /** MicroProfile Health's builder without a runtime. */
    private static final class SimpleBuilder extends HealthCheckResponseBuilder {
        private String name;
        private HealthCheckResponse.Status status = HealthCheckResponse.Status.DOWN;
        private final Map<String, Object> data = new LinkedHashMap<>();

        @Override
        public HealthCheckResponseBuilder name(String name) {
            this.name = name;
            return this;
        }

        @Override
        public HealthCheckResponseBuilder withData(String key, String value) {
            data.put(key, value);
            return this;
        }

        @Override
        public HealthCheckResponseBuilder withData(String key, long value) {
            data.put(key, value);
            return this;
        }

        @Override
        public HealthCheckResponseBuilder withData(String key, boolean value) {
            data.put(key, value);
            return this;
        }

        @Override
        public HealthCheckResponseBuilder up() {
            return status(true);
        }

        @Override
        public HealthCheckResponseBuilder down() {
            return status(false);
        }

        @Override
        public HealthCheckResponseBuilder status(boolean up) {
            status = up ? HealthCheckResponse.Status.UP : HealthCheckResponse.Status.DOWN;
            return this;
        }

        @Override
        public HealthCheckResponse build() {
            return new HealthCheckResponse(name, status, Optional.of(Map.copyOf(data)));
        }
    }
}
