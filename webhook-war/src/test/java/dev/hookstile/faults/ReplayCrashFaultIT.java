package dev.hookstile.faults;

import dev.hookstile.it.Deployments;
import dev.hookstile.it.ItEnvironment;
import dev.hookstile.it.Ledger;
import dev.hookstile.it.ServerProcess;
import dev.hookstile.it.Webhooks;
import org.junit.jupiter.api.Test;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code kill -9} in the middle of bulk replays, three times. A replay changes the event's status in the database
 * and queues its message on the broker in one XA transaction: a crash between the two resources' prepare and
 * commit would leave the event {@code received} with no message to move it, for ever, unless the transaction log
 * survives and recovery runs at the next start. Afterwards nothing may be stuck, and every event's committed runs
 * (the handler's effects) must match its recorded history one for one.
 */
class ReplayCrashFaultIT {

    private static final int EVENTS = 300;
    private static final int KILLS = 3;

    @Test
    void killedDuringBulkReplaysNothingIsStuckAndEveryRunIsRecordedOnce() throws Exception {
        Path work = ItEnvironment.faultWorkDirectory();
        String prefix = "rp-" + UUID.randomUUID() + "-";
        String type = "replayed." + prefix;
        Ledger ledger = new Ledger();
        Random random = new Random();
        try (var server = new ServerProcess(work, Deployments.exportTo(work.resolve("hookstile-it.war")))) {
            server.start();
            Webhooks webhooks = server.webhooks();
            for (int i = 0; i < EVENTS; i++) {
                HttpResponse<String> answer = webhooks.send(webhooks.standard("it", prefix + i,
                        "{\"type\":\"" + type + "\",\"n\":" + i + "}"));
                assertEquals(202, answer.statusCode(), answer.body());
            }
            awaitAll(ledger, prefix, "completed");

            for (int kill = 1; kill <= KILLS; kill++) {
                String request = "{\"source\":\"it\",\"status\":\"completed\",\"type\":\"" + type
                        + "\",\"requestId\":\"" + prefix + kill + "\"}";
                // The job the last kill cut off holds the one slot until its heartbeat has been silent for a minute
                // (ReplayJobs.ABANDONED): only then is it known to have lost its instance.
                long patience = System.nanoTime() + Duration.ofSeconds(150).toNanos();
                HttpResponse<String> job;
                do {
                    job = webhooks.send(webhooks.operator("api/replays").header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(request)));
                    if (job.statusCode() == 409) {
                        Webhooks.sleep(Duration.ofSeconds(2));
                    }
                } while (job.statusCode() == 409 && System.nanoTime() < patience);
                assertEquals(202, job.statusCode(), job.body());
                Webhooks.sleep(Duration.ofMillis(300 + random.nextInt(1_500)));
                server.kill();
                server.start();
            }

            Map<String, String> statuses = awaitSettled(ledger, prefix);
            Map<String, Integer> effects = ledger.effects(prefix);
            Map<String, Integer> runs = ledger.completedRuns(prefix);
            int replayed = 0;
            for (int i = 0; i < EVENTS; i++) {
                String id = prefix + i;
                assertEquals("completed", statuses.get(id), id + " is not stuck");
                int committed = effects.getOrDefault(id, 0);
                assertTrue(committed >= 1, id + " was processed");
                assertEquals(runs.getOrDefault(id, 0), committed,
                        id + ": every committed run recorded once in its history, and no run without its record");
                replayed += committed - 1;
            }
            Ledger.report("kill -9 x" + KILLS + " during bulk replays of " + EVENTS + " events",
                    new Ledger.Verdict(EVENTS, EVENTS, 0, 0, EVENTS, 0, 0, 0, 0),
                    replayed + " replayed runs committed across the crashes; every event completed, its runs matching its history");
            assertTrue(replayed > 0, "the replays ran between the crashes");
            assertTrue(server.stop(), "SIGTERM stops the server");
        }
    }

    private static void awaitAll(Ledger ledger, String prefix, String status) {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        Map<String, String> statuses;
        do {
            statuses = ledger.statuses(prefix);
            if (statuses.size() == EVENTS && statuses.values().stream().allMatch(status::equals)) {
                return;
            }
            Webhooks.sleep(Duration.ofMillis(500));
        } while (System.nanoTime() < deadline);
        throw new AssertionError("not all " + status + " after 120 s: " + statuses.size() + " recorded");
    }

    /** Waits until no event is received or retrying: what a lost replay message would leave for ever. */
    private static Map<String, String> awaitSettled(Ledger ledger, String prefix) {
        long deadline = System.nanoTime() + Duration.ofSeconds(180).toNanos();
        Map<String, String> statuses;
        do {
            statuses = ledger.statuses(prefix);
            if (statuses.values().stream().noneMatch(s -> s.equals("received") || s.equals("retrying"))) {
                return statuses;
            }
            Webhooks.sleep(Duration.ofSeconds(1));
        } while (System.nanoTime() < deadline);
        long stuck = statuses.values().stream().filter(s -> s.equals("received") || s.equals("retrying")).count();
        throw new AssertionError(stuck + " events still received or retrying 180 s after the last restart");
    }
}
