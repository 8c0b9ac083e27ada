package dev.hookstile.faults;

import dev.hookstile.it.Deployments;
import dev.hookstile.it.ItEnvironment;
import dev.hookstile.it.Ledger;
import dev.hookstile.it.ServerProcess;
import dev.hookstile.it.Traffic;
import dev.hookstile.it.Webhooks;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code kill -9} under load, five times at random moments, restarting on the same data directory each time, then
 * a crash in the narrowest window the design leaves: after a try's transaction has committed the handler's effect
 * and before the broker has been told the message was consumed. Every acknowledged event is processed exactly once.
 */
class CrashFaultIT {

    private static final int KILLS = 5;
    private static final int SENDERS = 8;

    private Path work;

    @BeforeEach
    void postgresOnly() throws Exception {
        work = ItEnvironment.faultWorkDirectory();
    }

    @Test
    void killedFiveTimesUnderLoadAndOnceAfterCommitNothingIsLostOrDoubled() throws Exception {
        String prefix = "kill-" + UUID.randomUUID() + "-";
        Random random = new Random();
        Ledger ledger = new Ledger();
        try (var server = new ServerProcess(work, Deployments.exportTo(work.resolve("hookstile-it.war")))) {
            server.start();
            Traffic traffic = Traffic.start(server.webhooks(), prefix, SENDERS);
            try (traffic) {
                for (int kill = 1; kill <= KILLS; kill++) {
                    Webhooks.sleep(Duration.ofMillis(2_000 + random.nextInt(6_000)));
                    server.kill();
                    server.start();
                }
                // The JVM halts itself once the try that processes this event has committed.
                String haltId = "halt-" + prefix;
                try {
                    var response = server.webhooks().send(
                            server.webhooks().standard("it", haltId, "{\"type\":\"halt\"}"));
                    assertEquals(202, response.statusCode(), response.body());
                } catch (UncheckedIOException haltedBeforeTheAnswer) {
                    // The consumer can commit, and halt the JVM, before the 202 is written: no answer then.
                }
                awaitDeath(server);
                server.start();
                Webhooks.sleep(Duration.ofSeconds(5));
            }
            Ledger.Verdict verdict = ledger.awaitSettled(traffic.answers(), prefix, Duration.ofSeconds(120));
            Ledger.report("kill -9 x" + KILLS + " under load, then a halt after commit", verdict, "");

            assertEquals(1, ledger.effects("halt-" + prefix).getOrDefault("halt-" + prefix, 0),
                    "the event whose commit the crash followed was processed exactly once");
            assertTrue(verdict.acked() > 0, verdict.toString());
            assertEquals(0, verdict.lost(), "acknowledged but never processed: " + verdict);
            assertTrue(verdict.exactlyOnce(), verdict.toString());
            assertTrue(server.stop(), "SIGTERM stops the server");
        }
    }

    private static void awaitDeath(ServerProcess server) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (server.isAlive()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the server did not halt after the commit");
            }
            Webhooks.sleep(Duration.ofMillis(100));
        }
    }
}
