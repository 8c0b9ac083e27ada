package dev.hookstile.outbox.boundary;

import com.sun.net.httpserver.HttpServer;
import dev.hookstile.source.boundary.Sources;
import dev.hookstile.metrics.boundary.Metrics;
import dev.hookstile.MapConfig;
import dev.hookstile.outbox.control.HttpForwarding;
import dev.hookstile.outbox.control.OutboxEntries;
import dev.hookstile.platform.boundary.SchemaMigration;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.spi.ConfigBuilder;
import org.eclipse.microprofile.config.spi.ConfigProviderResolver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OutboxRelayTest {

    private HttpServer destination;
    private final List<String> received = new CopyOnWriteArrayList<>();

    @BeforeEach
    void destination() throws IOException {
        destination = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        destination.createContext("/", exchange -> {
            received.add(exchange.getRequestHeaders().getFirst("X-Hookstile-Event-Id"));
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        destination.start();
    }

    @AfterEach
    void stop() {
        destination.stop(0);
    }

    /**
     * A header value the HTTP client refuses threw out of the relay: the whole batch stayed leased, nothing of it
     * was recorded, and what had been sent went out again when the lease ended, every minute.
     */
    @Test
    void anEntryNoRequestCanBeMadeOfIsDeadAndTheRestOfItsBatchIsDelivered() {
        String url = "http://127.0.0.1:" + destination.getAddress().getPort() + "/effects";
        var before = effect(1, "before", url, "application/json");
        var refused = effect(2, "refused-\u20ac", url, "application/json");
        var injected = effect(3, "injected", url, "text/plain\r\nX-Injected: 1");
        var after = effect(4, "after", url, "application/json");
        var entries = new RecordingEntries(List.of(before, refused, injected, after));

        relay(entries).relay();

        assertEquals(List.of(1L, 4L), entries.delivered.stream().sorted().toList());
        assertEquals(Set.of(2L, 3L), entries.dead.keySet());
        entries.dead.values().forEach(reason -> assertTrue(reason.startsWith("no request could be made"), reason));
        assertEquals(Set.of("before", "after"), Set.copyOf(received));
        assertEquals(List.of(), entries.retried, "nothing malformed is left to be tried again");
    }

    private static OutboxRelay relay(OutboxEntries entries) {
        var relay = new OutboxRelay();
        relay.entries = entries;
        relay.schema = new SchemaMigration() {
            @Override
            public boolean migrated() {
                return true;
            }
        };
        relay.intervalMillis = 0;
        relay.leaseSeconds = 60;
        relay.maxAttempts = 300;
        relay.breakerFailures = 5;
        relay.breakerOpenSeconds = 30;
        relay.published = new Breakers();
        relay.gauges = new OutboxGauges();
        relay.gauges.metrics = new Metrics();
        relay.gauges.sources = new Sources(new MapConfig(Map.of()));
        relay.gauges.register();
        relay.concurrency = 8;
        relay.threadPriority = Thread.NORM_PRIORITY;
        relay.published = new Breakers();
        relay.schedule();
        return relay;
    }

    private static OutboxEntries.Due effect(long id, String eventId, String url, String contentType) {
        return new OutboxEntries.Due(id, "shop", eventId, url, 0, "orders/paid",
                "{}".getBytes(StandardCharsets.UTF_8), 1, contentType);
    }

    /** The outbox table, as far as the relay sees it: one batch due, and what it records. */
    private static final class RecordingEntries extends OutboxEntries {
        private List<Due> due;
        final List<Long> delivered = new CopyOnWriteArrayList<>();
        final Map<Long, String> dead = new ConcurrentHashMap<>();
        final List<Long> retried = new CopyOnWriteArrayList<>();

        RecordingEntries(List<Due> due) {
            this.due = due;
        }

        @Override
        public List<Due> take(Instant now, Duration lease, int limit) {
            List<Due> taken = due;
            due = List.of();
            return taken;
        }

        @Override
        public void delivered(List<Long> ids, Instant at) {
            delivered.addAll(ids);
        }

        @Override
        public void retryAt(long id, Instant next, String error) {
            retried.add(id);
        }

        @Override
        public void dead(long id, String error) {
            dead.put(id, error);
        }
    }

    /** OutboxEntries asks the configuration which database it has, when it is created. */
    @BeforeAll
    static void configuration() {
        var config = new MapConfig(Map.of("hookstile.db.url", "jdbc:postgresql://127.0.0.1:5432/test"));
        ConfigProviderResolver.setInstance(new ConfigProviderResolver() {
            @Override
            public Config getConfig() {
                return config;
            }

            @Override
            public Config getConfig(ClassLoader loader) {
                return config;
            }

            @Override
            public ConfigBuilder getBuilder() {
                throw new UnsupportedOperationException();
            }

            @Override
            public void registerConfig(Config config, ClassLoader classLoader) {
            }

            @Override
            public void releaseConfig(Config config) {
            }
        });
    }

    @AfterAll
    static void noConfiguration() {
        ConfigProviderResolver.setInstance(null);
    }

    private static final HttpForwarding.Transient FAILED = new HttpForwarding.Transient("HTTP 503", OptionalLong.empty());

    @Test
    void backsOffDoublingFromTwoSecondsToTenMinutes() {
        assertEquals(Duration.ofSeconds(2), OutboxRelay.backoff(1, FAILED));
        assertEquals(Duration.ofSeconds(4), OutboxRelay.backoff(2, FAILED));
        assertEquals(Duration.ofSeconds(512), OutboxRelay.backoff(9, FAILED));
        assertEquals(Duration.ofMinutes(10), OutboxRelay.backoff(10, FAILED));
        assertEquals(Duration.ofMinutes(10), OutboxRelay.backoff(300, FAILED));
    }

    @Test
    void honoursALongerRetryAfterUpToAnHour() {
        var later = new HttpForwarding.Transient("HTTP 429", OptionalLong.of(90));
        var much = new HttpForwarding.Transient("HTTP 429", OptionalLong.of(86_400));
        var sooner = new HttpForwarding.Transient("HTTP 429", OptionalLong.of(1));

        assertEquals(Duration.ofSeconds(90), OutboxRelay.backoff(1, later));
        assertEquals(Duration.ofHours(1), OutboxRelay.backoff(1, much));
        assertEquals(Duration.ofSeconds(4), OutboxRelay.backoff(2, sooner));
    }
}
