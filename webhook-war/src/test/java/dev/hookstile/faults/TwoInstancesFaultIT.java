package dev.hookstile.faults;

import dev.hookstile.it.Deployments;
import dev.hookstile.it.ExternalBroker;
import dev.hookstile.it.ItEnvironment;
import dev.hookstile.it.Ledger;
import dev.hookstile.it.ServerProcess;
import dev.hookstile.it.Webhooks;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Scenario 5, the way to scale out: two instances sharing PostgreSQL and an external broker, every event posted ten
 * times, half to each, all at once. Exactly once across the pair: the claim in the database decides, whichever
 * instance's consumer takes which copy.
 */
class TwoInstancesFaultIT {

    private static final int EVENTS = 300;
    private static final int COPIES = 10;

    @Test
    void sameEventsPostedToBothInstancesAreProcessedOnceAcrossThePair() throws Exception {
        Path work = ItEnvironment.faultWorkDirectory();
        String prefix = "pair-" + UUID.randomUUID() + "-";
        Path war = Deployments.exportTo(work.resolve("hookstile-it.war"));
        Files.createDirectories(work.resolve("a"));
        Files.createDirectories(work.resolve("b"));
        try (var broker = new ExternalBroker(work.resolve("broker")).start();
             var a = new ServerProcess(work.resolve("a"), war);
             var b = new ServerProcess(work.resolve("b"), war)) {
            a.with("HOOKSTILE_BROKER_URL", broker.url()).start();
            b.with("HOOKSTILE_BROKER_URL", broker.url()).start();
            List<Webhooks> instances = List.of(a.webhooks(), b.webhooks());

            Map<String, Integer> answers = new ConcurrentHashMap<>();
            Map<Integer, Integer> statuses = new ConcurrentHashMap<>();
            ExecutorService senders = Executors.newFixedThreadPool(32);
            List<Future<?>> sent = new ArrayList<>();
            for (int e = 0; e < EVENTS; e++) {
                String id = prefix + e;
                for (int copy = 0; copy < COPIES; copy++) {
                    Webhooks to = instances.get(copy % 2);
                    sent.add(senders.submit(() -> {
                        int status = to.send(to.standard("it", id, "{\"type\":\"pair\"}")).statusCode();
                        statuses.merge(status, 1, Integer::sum);
                        // The event's answer for the ledger: 202 if any copy queued it.
                        answers.merge(id, status, (was, now) -> was == 202 || now == 202 ? 202 : was);
                    }));
                }
            }
            for (Future<?> f : sent) {
                f.get();
            }
            senders.shutdown();

            Ledger.Verdict verdict = new Ledger().awaitSettled(answers, prefix, Duration.ofMinutes(2));
            Ledger.report("two instances, " + EVENTS + " events x " + COPIES + " copies", verdict,
                    "answers by status " + statuses);

            assertEquals(EVENTS, answers.size());
            assertEquals(EVENTS * COPIES, statuses.getOrDefault(202, 0) + statuses.getOrDefault(200, 0),
                    "every copy answered 202 (queued) or 200 (duplicate): " + statuses);
            assertTrue(answers.values().stream().allMatch(s -> s == 202), "each event queued by some copy");
            assertEquals(EVENTS, verdict.processed(), verdict.toString());
            assertEquals(0, verdict.doubled(), "processed more than once across the pair: " + verdict);
            assertEquals(0, verdict.stuck(), verdict.toString());
        }
    }
}
