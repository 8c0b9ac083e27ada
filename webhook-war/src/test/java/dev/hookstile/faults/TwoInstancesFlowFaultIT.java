package dev.hookstile.faults;

import com.sun.net.httpserver.HttpServer;
import dev.hookstile.it.Deployments;
import dev.hookstile.it.ItEnvironment;
import dev.hookstile.it.ServerProcess;
import dev.hookstile.it.Webhooks;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 37's flow control with two instances sharing PostgreSQL: a destination's pace (20 a second, the {@code fwdpace}
 * source) holds for both relays together, and a pause made on one instance holds the other's forwardings until a
 * resume made on the other. Each instance has its own embedded broker: only the database is shared, as it is all the
 * flow control relies on.
 */
class TwoInstancesFlowFaultIT {

    private static final Duration DELIVERY = Duration.ofSeconds(60);
    /**
     * How late a paced forwarding may reach the receiver after its token: a deferred one is sent at its relay's next
     * turn (every 200 ms here), and the two relays turn at different moments, so forwardings due apart can arrive
     * together. Never early: two instances pacing alone would send 40 at once, far over any bound this allows.
     */
    private static final double LATE_SECONDS = 0.3;

    @Test
    void aPaceAndAPauseHoldForBothInstancesTogether() throws Exception {
        Path work = ItEnvironment.faultWorkDirectory();
        Path war = Deployments.exportTo(work.resolve("hookstile-it.war"));
        Files.createDirectories(work.resolve("a"));
        Files.createDirectories(work.resolve("b"));
        Map<String, Long> arrivedAt = new ConcurrentHashMap<>();
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/hooks", exchange -> {
            exchange.getRequestBody().readAllBytes();
            arrivedAt.putIfAbsent(exchange.getRequestHeaders().getFirst("Idempotency-Key"), System.nanoTime());
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        receiver.start();
        String to = "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hooks";
        try (var a = new ServerProcess(work.resolve("a"), war);
             var b = new ServerProcess(work.resolve("b"), war)) {
            a.with("HOOKSTILE_SOURCES_FWDPACE_DESTINATION_URL", to)
                    .with("HOOKSTILE_SOURCES_FWDHOLD_DESTINATION_URL", to).start();
            b.with("HOOKSTILE_SOURCES_FWDPACE_DESTINATION_URL", to)
                    .with("HOOKSTILE_SOURCES_FWDHOLD_DESTINATION_URL", to).start();
            List<Webhooks> instances = List.of(a.webhooks(), b.webhooks());

            // The pace: 100 forwardings, half processed by each instance, both relays sending.
            var keys = new ArrayList<String>();
            for (int i = 0; i < 100; i++) {
                String id = "pair-paced-" + i + "-" + UUID.randomUUID();
                Webhooks instance = instances.get(i % 2);
                assertEquals(202, instance.send(instance.standard("fwdpace", id, "{\"type\":\"invoice.paid\"}"))
                        .statusCode());
                keys.add("fwdpace:" + id);
            }
            awaitAll(arrivedAt, keys);
            List<Long> times = keys.stream().map(arrivedAt::get).sorted().toList();
            for (int i = 0; i < times.size(); i++) {
                for (int j = i; j < times.size(); j++) {
                    double seconds = (times.get(j) - times.get(i)) / 1e9;
                    assertTrue(j - i + 1 <= 20 + 20 * (seconds + LATE_SECONDS) + 1, (j - i + 1)
                            + " forwardings arrived within "
                            + seconds + " s from both instances");
                }
            }

            // The pause: made on a, it holds what b processes; a resume on b sends it.
            pauseOrResume(instances.get(0), "fwdhold", "pause");
            var held = new ArrayList<String>();
            for (int i = 0; i < 6; i++) {
                String id = "pair-held-" + i + "-" + UUID.randomUUID();
                Webhooks instance = instances.get(1);
                assertEquals(202, instance.send(instance.standard("fwdhold", id, "{\"type\":\"invoice.paid\"}"))
                        .statusCode());
                instance.awaitRecorded("fwdhold", id, Webhooks.completed(), DELIVERY);
                held.add("fwdhold:" + id);
            }
            // Another forwarding of b's, due after the held ones, arrives: b's relay has walked past them.
            String other = "pair-paced-after-" + UUID.randomUUID();
            instances.get(1).send(instances.get(1).standard("fwdpace", other, "{\"type\":\"invoice.paid\"}"));
            awaitAll(arrivedAt, List.of("fwdpace:" + other));
            assertTrue(held.stream().noneMatch(arrivedAt::containsKey), "held on both instances");

            pauseOrResume(instances.get(1), "fwdhold", "resume");
            awaitAll(arrivedAt, held);
        } finally {
            receiver.stop(0);
        }
    }

    private static void pauseOrResume(Webhooks instance, String source, String action) {
        HttpResponse<String> answer = instance.send(instance.operator("api/destinations/" + source + "/" + action)
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertEquals(200, answer.statusCode(), answer.body());
        JsonObject destination = Webhooks.json(answer.body());
        assertEquals(action.equals("pause"), destination.getBoolean("paused"), answer.body());
    }

    private static void awaitAll(Map<String, Long> arrivedAt, List<String> keys) {
        long deadline = System.nanoTime() + DELIVERY.toNanos();
        while (!arrivedAt.keySet().containsAll(keys)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(keys.stream().filter(k -> !arrivedAt.containsKey(k)).count() + " of "
                        + keys.size() + " forwardings did not arrive within " + DELIVERY.toSeconds() + " s");
            }
            Webhooks.sleep(Duration.ofMillis(100));
        }
    }
}
