package dev.hookstile.outbox.control;

import com.sun.net.httpserver.HttpServer;
import dev.hookstile.source.Destination;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

class HttpForwardingTest {

    private final HttpForwarding forwarding = new HttpForwarding();

    @AfterEach
    void close() {
        forwarding.close();
    }

    /** A client's threads outliving its application would hold the deployment's classes for the server's life. */
    @Test
    void closingEndsTheThreadsTheClientStarted() throws Exception {
        HttpServer destination = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        destination.createContext("/hooks", exchange -> {
            try (exchange) {
                exchange.getRequestBody().readAllBytes();
                exchange.sendResponseHeaders(204, -1);
            }
        });
        destination.start();
        Set<Thread> before = forwardingThreads();
        try {
            var entry = new OutboxEntries.Due(1, "shop", "order-1", "http://127.0.0.1:"
                    + destination.getAddress().getPort() + "/hooks", 0, "orders/paid", new byte[]{'{', '}'}, 1,
                    "application/json", null);
            assertInstanceOf(HttpForwarding.Delivered.class, forwarding.sendEffect(entry, null).join());
        } finally {
            destination.stop(0);
        }
        Set<Thread> started = new HashSet<>(forwardingThreads());
        started.removeAll(before);
        assertFalse(started.isEmpty(), "the client ran the exchange on threads of its own");

        forwarding.close();

        for (Thread thread : started) {
            thread.join(10_000);
            assertFalse(thread.isAlive(), thread.getName() + " still runs after close");
        }
    }

    @Test
    void aForwardingAndAnEffectCarryTheTraceOfTheTryThatScheduledThem() throws Exception {
        var seen = new ConcurrentLinkedQueue<String>();
        HttpServer destination = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        destination.createContext("/hooks", exchange -> {
            try (exchange) {
                exchange.getRequestBody().readAllBytes();
                seen.add(String.valueOf(exchange.getRequestHeaders().getFirst("traceparent")));
                exchange.sendResponseHeaders(204, -1);
            }
        });
        destination.start();
        String url = "http://127.0.0.1:" + destination.getAddress().getPort() + "/hooks";
        String traced = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        try {
            var forwarded = new OutboxEntries.Due(1, "shop", "order-1", url, 0, "orders/paid", new byte[]{'{', '}'},
                    0, null, traced);
            var effect = new OutboxEntries.Due(2, "shop", "order-1", url, 0, "orders/paid", new byte[]{'{', '}'}, 1,
                    "application/json", traced);
            var untraced = new OutboxEntries.Due(3, "shop", "order-2", url, 0, "orders/paid", new byte[]{'{', '}'}, 1,
                    "application/json", null);

            assertInstanceOf(HttpForwarding.Delivered.class, forwarding.send(new Destination(URI.create(url), SECRET,
                    List.of()), forwarded, Instant.now(), traced).join());
            assertInstanceOf(HttpForwarding.Delivered.class, forwarding.sendEffect(effect, traced).join());
            assertInstanceOf(HttpForwarding.Delivered.class, forwarding.sendEffect(untraced, null).join());
        } finally {
            destination.stop(0);
        }
        assertEquals(List.of(traced, traced, "null"), List.copyOf(seen));
    }

    private static Set<Thread> forwardingThreads() {
        Set<Thread> threads = new HashSet<>(Thread.getAllStackTraces().keySet());
        threads.removeIf(thread -> !thread.getName().startsWith("hookstile-forwarding-"));
        return threads;
    }

    @Test
    void twoHundredsAreDelivered() {
        assertInstanceOf(HttpForwarding.Delivered.class, HttpForwarding.classify(200, null));
        assertInstanceOf(HttpForwarding.Delivered.class, HttpForwarding.classify(204, null));
    }

    @Test
    void timeoutsTooManyRequestsAndServerErrorsAreTriedAgain() {
        for (int status : new int[]{408, 429, 500, 502, 503}) {
            assertInstanceOf(HttpForwarding.Transient.class, HttpForwarding.classify(status, null), "HTTP " + status);
        }
    }

    @Test
    void otherClientErrorsAreFinal() {
        for (int status : new int[]{400, 401, 403, 404, 410, 422}) {
            assertInstanceOf(HttpForwarding.Permanent.class, HttpForwarding.classify(status, null), "HTTP " + status);
        }
    }

    @Test
    void aRetryAfterInSecondsIsKeptAndADateIsLeftToTheBackOff() {
        var seconds = (HttpForwarding.Transient) HttpForwarding.classify(429, "120");
        var date = (HttpForwarding.Transient) HttpForwarding.classify(503, "Wed, 21 Oct 2026 07:28:00 GMT");

        assertEquals(OptionalLong.of(120), seconds.retryAfterSeconds());
        assertEquals(OptionalLong.empty(), date.retryAfterSeconds());
    }

    /**
     * Values the HTTP client refuses in a header: the event id and type come from senders (ingest refuses control
     * characters, not every character outside Latin-1), an effect's content type from a handler.
     */
    @Test
    void anEntryWhoseHeaderTheClientRefusesIsUnsendableNotAnException() {
        var euroInTheId = effect("order-\u20ac-1", "application/json");
        var lineBreakInTheType = effect("order-1", "application/json\r\nX-Injected: 1");

        for (var entry : List.of(euroInTheId, lineBreakInTheType)) {
            var result = forwarding.sendEffect(entry, null).join();

            var unsendable = assertInstanceOf(HttpForwarding.Unsendable.class, result, entry.eventId());
            assertFalse(unsendable.reason().contains("\r") || unsendable.reason().contains("\n"), unsendable.reason());
        }
        var forwarded = new OutboxEntries.Due(1, "shop", "order-\u20ac-1", "http://127.0.0.1:9/hooks", 0,
                "orders/paid", new byte[0], 0, null, null);
        assertInstanceOf(HttpForwarding.Unsendable.class, forwarding.send(destination(SECRET), forwarded,
                Instant.now(), null).join());
    }

    @Test
    void aDestinationWithASigningKeySignsV1aThatItsPublicKeyVerifiesAndBothKindsWithBoth() throws Exception {
        String signingKey = "whsk_VEVTVFNJR05JTkdLRVlET05PVFVTRVRISVNGT1JBTlk=";
        var keyOnly = new dev.hookstile.source.Destination(java.net.URI.create("http://127.0.0.1:9/hooks"), null,
                dev.hookstile.source.Ed25519.signingKey(signingKey), java.util.List.of(), null, null);
        byte[] body = "{\"test\": 2432232314}".getBytes(java.nio.charset.StandardCharsets.UTF_8);

        String header = HttpForwarding.signatures(keyOnly, "msg_p5jXN8AQM9LWM0D4loKWxJek", "1614265330", body);

        assertEquals("v1a,tQ9V2XOqn7jL/DQenEFpqIugdBVtiMmER5mhSkXBNwM0mkATuDe6KYYUuxqtaiHeYGb7KaaBRdM5WqyeFiL8Ag==",
                header, "the specification's vector");
        var both = new dev.hookstile.source.Destination(keyOnly.url(), SECRET, keyOnly.signingKey(),
                java.util.List.of(), null, null);
        String two = HttpForwarding.signatures(both, "msg_p5jXN8AQM9LWM0D4loKWxJek", "1614265330", body);
        assertEquals("v1," + HttpForwarding.signature(SECRET, "msg_p5jXN8AQM9LWM0D4loKWxJek", "1614265330", body)
                + " " + header, two);
    }

    @Test
    void anEmptyDestinationSecretIsUnsendableNotAnException() {
        var entry = new OutboxEntries.Due(1, "shop", "order-1", "http://127.0.0.1:9/hooks", 0, "orders/paid",
                new byte[0], 0, null, null);

        var result = forwarding.send(destination(new byte[0]), entry, Instant.now(), null).join();

        assertInstanceOf(HttpForwarding.Unsendable.class, result);
    }

    @Test
    void anEffectToAUrlTheClientCannotSendToIsUnsendable() {
        var entry = new OutboxEntries.Due(1, "shop", "order-1", "ftp://127.0.0.1/x", 0, "orders/paid",
                new byte[0], 1, "application/json", null);

        assertInstanceOf(HttpForwarding.Unsendable.class, forwarding.sendEffect(entry, null).join());
    }

    /** The client's message quotes the URL it refused: what is kept of it (the operator API shows it) has no path. */
    @Test
    void whyAnEffectCouldNotBeSentNamesItsUrlWithoutThePath() {
        var entry = new OutboxEntries.Due(1, "shop", "order-1", "http://hooks.example.com:81/in/s3cret token", 0,
                "orders/paid", new byte[0], 1, "application/json", null);

        var unsendable = assertInstanceOf(HttpForwarding.Unsendable.class, forwarding.sendEffect(entry, null).join());

        assertFalse(unsendable.reason().contains("s3cret"), unsendable.reason());
    }

    private static final byte[] SECRET = Base64.getDecoder().decode("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");

    private static Destination destination(byte[] secret) {
        return new Destination(URI.create("http://127.0.0.1:9/hooks"), secret, List.of());
    }

    private static OutboxEntries.Due effect(String eventId, String contentType) {
        return new OutboxEntries.Due(1, "shop", eventId, "http://127.0.0.1:9/effects", 0, "orders/paid",
                new byte[0], 1, contentType, null);
    }

    /** The example of the Standard Webhooks specification's reference implementations. */
    @Test
    void signsTheStandardWebhooksWay() {
        byte[] secret = Base64.getDecoder().decode("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
        String body = "{\"test\": 2432232314}";

        assertEquals("g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=", HttpForwarding.signature(secret,
                "msg_p5jXN8AQM9LWM0D4loKWxJek", "1614265330", body.getBytes(StandardCharsets.UTF_8)));
    }
}
