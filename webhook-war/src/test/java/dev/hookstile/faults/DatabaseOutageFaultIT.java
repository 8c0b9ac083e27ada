package dev.hookstile.faults;

import dev.hookstile.it.DatabaseProxy;
import dev.hookstile.it.Deployments;
import dev.hookstile.it.ItEnvironment;
import dev.hookstile.it.Ledger;
import dev.hookstile.it.ServerProcess;
import dev.hookstile.it.Traffic;
import dev.hookstile.it.Webhooks;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * PostgreSQL goes away under load, twice over: stopped (connections closed, new ones refused) and partitioned (no
 * answer, no refusal). Ingest must keep acknowledging, since the broker holds the events; processing must wait and
 * then drain by itself; and every acknowledged event must be processed exactly once.
 */
class DatabaseOutageFaultIT {

    /** Short, so the bound the issue sets (2 × the longest redelivery delay) is short too. */
    private static final Duration MAX_REDELIVERY_DELAY = Duration.ofSeconds(10);
    private static final Duration OUTAGE = Duration.ofSeconds(20);
    private static final int SENDERS = 8;

    private Path work;

    @BeforeEach
    void postgresOnly() throws Exception {
        work = ItEnvironment.faultWorkDirectory();
    }

    @Test
    void databaseStoppedUnderLoadLosesNothingAndProcessingResumesByItself() throws Exception {
        runOutage("PostgreSQL stopped 20 s", DatabaseProxy::stop, false);
    }

    @Test
    void databaseThatStopsAnsweringDoesNotStopIngest() throws Exception {
        // The contract: every answer within a second while the database does not answer.
        runOutage("PostgreSQL partitioned 20 s", DatabaseProxy::partition, true);
    }

    /** @param everyAnswerWithinASecond the slowest answer during the outage too, not only the 99th percentile */
    private void runOutage(String scenario, java.util.function.Consumer<DatabaseProxy> fault,
                           boolean everyAnswerWithinASecond) throws Exception {
        String prefix = "db-" + UUID.randomUUID() + "-";
        try (var proxy = new DatabaseProxy(ItEnvironment.databaseUrl());
             var server = new ServerProcess(work, Deployments.exportTo(work.resolve("hookstile-it.war")))) {
            server.database(proxy.url(ItEnvironment.databaseUrl()))
                    .with("HOOKSTILE_PROCESSING_MAX_REDELIVERY_DELAY_MS", String.valueOf(MAX_REDELIVERY_DELAY.toMillis()))
                    .start();
            Ledger ledger = new Ledger();
            long outageStart;
            long outageEnd;
            Traffic traffic = Traffic.start(server.webhooks(), prefix, SENDERS);
            try (traffic) {
                Webhooks.sleep(Duration.ofSeconds(10));
                outageStart = traffic.elapsedMillis();
                fault.accept(proxy);
                Webhooks.sleep(OUTAGE);
                proxy.restore();
                outageEnd = traffic.elapsedMillis();
                Webhooks.sleep(Duration.ofSeconds(10));
            }
            var answers = traffic.answers();
            List<Traffic.Sample> duringOutage = traffic.sentBetween(outageStart, outageEnd);
            long p99 = Traffic.percentile(duringOutage, 99);
            // Every answer the outage could have held: sent during it, or sent before and still waiting when it began.
            long slowest = traffic.samples().stream()
                    .filter(s -> s.sentAtMillis() < outageEnd && s.sentAtMillis() + s.latencyMillis() >= outageStart)
                    .mapToLong(Traffic.Sample::latencyMillis).max().orElse(0);
            long notAcked = duringOutage.stream().filter(s -> s.status() != 202).count();

            // Processing resumes by itself: bounded by twice the longest redelivery delay, plus the drain.
            Ledger.Verdict verdict = ledger.awaitSettled(answers, prefix,
                    MAX_REDELIVERY_DELAY.multipliedBy(2).plusSeconds(60));
            Ledger.report(scenario, verdict, "during the outage: " + duringOutage.size() + " sent, " + notAcked
                    + " not answered 202, ack p99 " + p99 + " ms, slowest answer " + slowest + " ms");

            assertTrue(duringOutage.size() > SENDERS, "traffic ran through the outage: " + duringOutage.size());
            assertEquals(0, notAcked, "every event sent during the outage was acknowledged (the broker holds it)");
            assertTrue(p99 < 1_000, "ack p99 during the outage under 1 s, was " + p99 + " ms");
            assertEquals(0, verdict.lost(), "acknowledged but never processed: " + verdict);
            assertEquals(0, verdict.stuck(), "left received or retrying: " + verdict);
            assertTrue(verdict.exactlyOnce(), verdict.toString());
            if (everyAnswerWithinASecond) {
                assertTrue(slowest < 1_000, "every ingest answer during the outage within 1 s, the slowest took "
                        + slowest + " ms");
            }
        }
    }
}
