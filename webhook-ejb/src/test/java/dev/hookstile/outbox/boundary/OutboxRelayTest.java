package dev.hookstile.outbox.boundary;

import com.sun.net.httpserver.HttpServer;
import dev.hookstile.trace.boundary.Tracing;
import dev.hookstile.source.boundary.Sources;
import dev.hookstile.metrics.boundary.Metrics;
import dev.hookstile.MapConfig;
import dev.hookstile.outbox.control.HttpForwarding;
import dev.hookstile.outbox.control.OutboxEntries;
import dev.hookstile.outbox.control.OutboxStatements;
import dev.hookstile.source.Destination;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.NotificationOptions;
import jakarta.enterprise.util.TypeLiteral;
import dev.hookstile.platform.boundary.SchemaMigration;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.spi.ConfigBuilder;
import org.eclipse.microprofile.config.spi.ConfigProviderResolver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.IOException;
import java.lang.annotation.Annotation;
import java.net.URI;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OutboxRelayTest {

    private HttpServer destination;
    private final List<String> received = new CopyOnWriteArrayList<>();

    /** What the notification endpoint got: headers and body. */
    private final List<Map<String, String>> notified = new CopyOnWriteArrayList<>();
    /** The status the {@code /flaky} path answers with, settable by a test. */
    private volatile int flakyStatus = 503;

    @BeforeEach
    void destination() throws IOException {
        destination = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        destination.createContext("/", exchange -> {
            received.add(exchange.getRequestHeaders().getFirst("X-Hookstile-Event-Id"));
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        destination.createContext("/notify", exchange -> {
            notified.add(Map.of("webhook-id", exchange.getRequestHeaders().getFirst("webhook-id"),
                    "webhook-timestamp", exchange.getRequestHeaders().getFirst("webhook-timestamp"),
                    "webhook-signature", exchange.getRequestHeaders().getFirst("webhook-signature"),
                    "content-type", exchange.getRequestHeaders().getFirst("Content-Type"),
                    "body", new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        destination.createContext("/flaky", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(flakyStatus, -1);
            exchange.close();
        });
        destination.start();
    }

    @Test
    void aNotificationGoesToTheNotificationEndpointSignedWithItsIdAndSecret() throws Exception {
        String url = "http://127.0.0.1:" + destination.getAddress().getPort() + "/notify";
        byte[] secret = "notification-secret-of-32-bytes!".getBytes(StandardCharsets.UTF_8);
        String id = "events.dead:gh:permanent:1764072000";
        String body = "{\"type\":\"events.dead\",\"count\":200}";
        var entries = new RecordingEntries(List.of(new OutboxEntries.Due(7, OutboxStatements.NOTIFICATIONS, id, url, 0,
                null, body.getBytes(StandardCharsets.UTF_8), 0, "application/json", null)));
        var relay = relay(entries);
        relay.outbox.notifyTo(new Destination(URI.create(url), secret, List.of()));

        relay.relay();

        assertEquals(List.of(7L), entries.delivered);
        assertEquals(1, notified.size());
        Map<String, String> request = notified.get(0);
        assertEquals(id, request.get("webhook-id"));
        assertEquals(body, request.get("body"));
        assertEquals("application/json", request.get("content-type"));
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret, "HmacSHA256"));
        String signed = id + "." + request.get("webhook-timestamp") + "." + body;
        assertEquals("v1," + Base64.getEncoder().encodeToString(mac.doFinal(signed.getBytes(StandardCharsets.UTF_8))),
                request.get("webhook-signature"));
    }

    @Test
    void aNotificationForAnotherEndpointThanTheConfiguredOneIsLeftPending() {
        String url = "http://127.0.0.1:" + destination.getAddress().getPort() + "/notify";
        var entries = new RecordingEntries(List.of(new OutboxEntries.Due(8, OutboxStatements.NOTIFICATIONS,
                "events.dead:gh:permanent:1764072000", url + "/old", 0, null, "{}".getBytes(StandardCharsets.UTF_8),
                0, "application/json", null)));
        var relay = relay(entries);
        relay.outbox.notifyTo(new Destination(URI.create(url), new byte[]{1}, List.of()));

        relay.relay();

        assertEquals(List.of(), entries.delivered);
        assertEquals(List.of(), entries.retried);
        assertEquals(Map.of(), entries.dead);
        assertEquals(List.of(), notified, "the endpoint changed since: kept, visible, not sent elsewhere");
    }

    @Test
    void aBreakerTellsWhenItOpensAndWhenItClosesNotWhenATrialFailsAgain() {
        String url = "http://127.0.0.1:" + destination.getAddress().getPort() + "/flaky";
        var entries = new RecordingEntries(List.of());
        var relay = relay(entries);
        relay.breakerFailures = 2;
        relay.breakerOpenSeconds = 0;
        relay.schedule();

        for (int i = 1; i <= 4; i++) {
            entries.due = List.of(effect(i, "e" + i, url, "application/json"));
            relay.relay();
        }
        assertEquals(List.of(true), relay.breakerChanges instanceof RecordedChanges recorded
                ? recorded.changes.stream().map(BreakerChange::opened).toList() : null,
                "opened after the second failure; the failed trials after it reopen it, which is no change");
        assertEquals(url, ((RecordedChanges) relay.breakerChanges).changes.get(0).destination());

        flakyStatus = 204;
        entries.due = List.of(effect(5, "e5", url, "application/json"));
        relay.relay();
        entries.due = List.of(effect(6, "e6", url, "application/json"));
        relay.relay();

        assertEquals(List.of(true, false), ((RecordedChanges) relay.breakerChanges).changes.stream()
                .map(BreakerChange::opened).toList(), "closed by the first answer, once");
    }

    /** The CDI event the relay fires, as a list. */
    private static final class RecordedChanges implements Event<BreakerChange> {
        final List<BreakerChange> changes = new CopyOnWriteArrayList<>();

        @Override
        public void fire(BreakerChange change) {
            changes.add(change);
        }

        @Override
        public <U extends BreakerChange> CompletionStage<U> fireAsync(U event) {
            throw new UnsupportedOperationException();
        }

        @Override
        public <U extends BreakerChange> CompletionStage<U> fireAsync(U event, NotificationOptions options) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Event<BreakerChange> select(Annotation... qualifiers) {
            throw new UnsupportedOperationException();
        }

        @Override
        public <U extends BreakerChange> Event<U> select(Class<U> subtype, Annotation... qualifiers) {
            throw new UnsupportedOperationException();
        }

        @Override
        public <U extends BreakerChange> Event<U> select(TypeLiteral<U> subtype, Annotation... qualifiers) {
            throw new UnsupportedOperationException();
        }
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

    /**
     * A chat's incoming webhook carries its secret in the path: the relay's lines about it (its breaker opening, a
     * notification given up on) name its scheme, host and port only, in the message and in the structured fields.
     */
    @Test
    void theRelaysLinesNameTheNotificationEndpointWithoutItsPath() {
        String origin = "http://127.0.0.1:" + destination.getAddress().getPort();
        String url = origin + "/flaky/services/T0000/B0000/XXXXs3cretXXXX";
        byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
        var entries = new RecordingEntries(List.of(new OutboxEntries.Due(9, OutboxStatements.NOTIFICATIONS,
                "events.dead:gh:permanent:1764072000", url, 0, null, body, 0, "application/json", null)));
        var relay = relay(entries);
        relay.breakerFailures = 1;
        relay.maxAttempts = 1;
        relay.schedule();
        relay.outbox.notifyTo(new Destination(URI.create(url), new byte[32], List.of()));
        List<LogRecord> lines = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                lines.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger log = Logger.getLogger(OutboxRelay.class.getName());
        log.addHandler(capture);
        try {
            relay.relay();
        } finally {
            log.removeHandler(capture);
        }

        assertEquals(Set.of(9L), entries.dead.keySet(), "one attempt allowed: given up on after it");
        assertTrue(lines.size() >= 2, "the breaker's line and the dead notification's: " + lines.size());
        for (LogRecord line : lines) {
            String text = new SimpleFormatter().formatMessage(line) + " " + Arrays.toString(line.getParameters());
            assertTrue(text.contains(origin), text);
            assertFalse(text.contains("/flaky") || text.contains("s3cret"), text);
        }
        entries.dead.values().forEach(reason -> assertFalse(reason.contains("s3cret"), reason));
    }

    private static OutboxRelay relay(OutboxEntries entries) {
        var relay = new OutboxRelay();
        relay.entries = entries;
        relay.tracing = Tracing.through(null);
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
        relay.sources = relay.gauges.sources;
        relay.gauges.register();
        relay.outbox = new ForwardingSchedule();
        relay.breakerChanges = new RecordedChanges();
        relay.concurrency = 8;
        relay.threadPriority = Thread.NORM_PRIORITY;
        relay.published = new Breakers();
        relay.schedule();
        return relay;
    }

    private static OutboxEntries.Due effect(long id, String eventId, String url, String contentType) {
        return new OutboxEntries.Due(id, "shop", eventId, url, 0, "orders/paid",
                "{}".getBytes(StandardCharsets.UTF_8), 1, contentType, null);
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
        public Taken take(Instant now, Duration lease, int limit, String notificationsTo,
                          Map<List<String>, Double> paces) {
            List<Due> taken = due;
            due = List.of();
            return new Taken(taken, taken.size() == limit);
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
