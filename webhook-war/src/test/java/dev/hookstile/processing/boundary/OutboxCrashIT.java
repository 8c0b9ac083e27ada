package dev.hookstile.processing.boundary;

import com.sun.net.httpserver.HttpServer;
import dev.hookstile.it.Deployments;
import dev.hookstile.it.ItEnvironment;
import dev.hookstile.it.ServerProcess;
import dev.hookstile.it.Webhooks;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.hookstile.it.Webhooks.completed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The outbox across crashes, with the server run as users run it ({@code ./hookstile}) and killed with SIGKILL:
 * events processed while their destination is unreachable keep their forwarding through a crash, and a crash in the
 * middle of a send repeats that request once more under the same {@code Idempotency-Key}, never a new one.
 */
class OutboxCrashIT {

    private static final int PORT = 18772;
    private static final int EVENTS = 5;
    private static final Duration WAIT = Duration.ofSeconds(90);

    @Test
    void crashesAfterTheCommitAndMidSendLoseNothingAndRepeatOnlyTheKey() throws Exception {
        Path work = Files.createDirectories(ItEnvironment.dir().resolve("outbox-crash-" + UUID.randomUUID()));
        Map<String, AtomicInteger> received = new ConcurrentHashMap<>();
        AtomicBoolean crashMidSend = new AtomicBoolean(true);
        CountDownLatch crashed = new CountDownLatch(1);
        HttpServer receiver = null;
        try (var server = new ServerProcess(work, Deployments.exportTo(work.resolve("hookstile-it.war")))) {
            server.with("HOOKSTILE_JAVA_OPTS", "-Xms128m -Xmx512m")
                    .with("HOOKSTILE_SOURCES_FWD_DESTINATION_URL", "http://127.0.0.1:" + PORT + "/hooks")
                    .with("HOOKSTILE_OUTBOX_LEASE_SECONDS", "5")
                    // Refused connections before the destination is up must not open the breaker for this test.
                    .with("HOOKSTILE_OUTBOX_BREAKER_FAILURES", "1000")
                    .start();
            Webhooks webhooks = server.webhooks();
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < EVENTS; i++) {
                String id = "ok-" + UUID.randomUUID();
                assertEquals(202, webhooks.send(webhooks.standard("fwd", id, "{\"type\":\"invoice.paid\"}")).statusCode());
                ids.add(id);
            }
            // Processed and committed, forwarding pending: nothing listens at the destination yet.
            for (String id : ids) {
                webhooks.awaitRecorded("fwd", id, completed(), WAIT);
            }
            server.kill();

            server.start();
            receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", PORT), 0);
            receiver.createContext("/hooks", exchange -> {
                exchange.getRequestBody().readAllBytes();
                received.computeIfAbsent(exchange.getRequestHeaders().getFirst("Idempotency-Key"),
                        key -> new AtomicInteger()).incrementAndGet();
                if (crashMidSend.getAndSet(false)) {
                    // The request arrived; the server dies before it hears the answer.
                    server.kill();
                    crashed.countDown();
                }
                exchange.sendResponseHeaders(200, -1);
                exchange.close();
            });
            receiver.start();
            assertTrue(crashed.await(WAIT.toSeconds(), TimeUnit.SECONDS), "the destination got a request");

            server.start();
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (System.nanoTime() < deadline && !ids.stream().allMatch(id -> received.containsKey("fwd:" + id))) {
                Webhooks.sleep(Duration.ofMillis(200));
            }
            Webhooks.sleep(Duration.ofSeconds(8)); // longer than a lease: anything still to repeat would have
            for (String id : ids) {
                assertTrue(received.containsKey("fwd:" + id), "forwarded after the crashes: " + id);
            }
            int copies = received.values().stream().mapToInt(AtomicInteger::get).sum();
            assertEquals(EVENTS + 1, copies, "one request repeated, under its own key: the one the crash cut off "
                    + received);
            assertEquals(EVENTS, received.size(), "no other key");
            assertTrue(server.stop(), "SIGTERM stops the server");
        } finally {
            if (receiver != null) {
                receiver.stop(0);
            }
        }
    }
}
