package dev.hookstile.faults;

import dev.hookstile.it.Await;
import dev.hookstile.it.Deployments;
import dev.hookstile.it.ItEnvironment;
import dev.hookstile.it.Ledger;
import dev.hookstile.it.ServerProcess;
import dev.hookstile.it.Webhooks;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A bulk replay of 50,000 events while senders keep delivering. A replay used to queue every event it selected as
 * fast as it could, each a message at the priority of new deliveries: new deliveries waited behind the whole backlog,
 * and a large enough one filled the broker's store until ingest answered 503. Now one job runs at a time, a filter
 * selecting more than {@code HOOKSTILE_REPLAY_MAX_EVENTS} is refused, and the job queues a page only while few
 * replayed events wait: new deliveries must all be answered 2xx, and processed within seconds while most of the
 * replay still waits in the database.
 */
class ReplayFlowFaultIT {

    private static final int BACKLOG = 50_000;
    private static final Duration SENDING = Duration.ofSeconds(30);
    /** A new delivery waits behind a few hundred replayed messages at most: seconds, not the backlog's minutes. */
    private static final Duration AHEAD = Duration.ofSeconds(10);

    @Test
    void aReplayOfFiftyThousandEventsNeverCrowdsOutNewDeliveries() throws Exception {
        Path work = ItEnvironment.faultWorkDirectory();
        String run = UUID.randomUUID().toString();
        String prefix = "flow-" + run + "-";
        String type = "flow." + run;
        Instant base = Instant.now().minus(Duration.ofHours(1)).truncatedTo(ChronoUnit.SECONDS);
        Ledger ledger = new Ledger();
        try (var server = new ServerProcess(work, Deployments.exportTo(work.resolve("hookstile-it.war")))
                .with("HOOKSTILE_REPLAY_MAX_EVENTS", String.valueOf(BACKLOG))) {
            server.start();
            Webhooks webhooks = server.webhooks();
            // One more than a job may replay, recorded as processed an hour ago.
            insertCompleted(prefix, type, base, BACKLOG + 1);

            HttpResponse<String> tooLarge = startJob(webhooks, "{\"source\":\"it\",\"status\":\"completed\",\"type\":\""
                    + type + "\",\"requestId\":\"" + run + "-all\"}");
            assertEquals(422, tooLarge.statusCode(), tooLarge.body());
            assertEquals("application/problem+json", tooLarge.headers().firstValue("Content-Type").orElse(""));
            assertTrue(tooLarge.body().contains("replay-too-large"), tooLarge.body());

            String until = base.plusMillis(BACKLOG).toString();
            HttpResponse<String> started = startJob(webhooks, "{\"source\":\"it\",\"status\":\"completed\",\"type\":\""
                    + type + "\",\"until\":\"" + until + "\",\"requestId\":\"" + run + "\"}");
            assertEquals(202, started.statusCode(), started.body());
            String job = json(started.body()).getString("id");

            HttpResponse<String> second = startJob(webhooks, "{\"source\":\"it\",\"status\":\"dead\",\"requestId\":\""
                    + run + "-second\"}");
            assertEquals(409, second.statusCode(), second.body());
            assertTrue(second.body().contains("replay-job-running") && second.body().contains(job), second.body());

            // Senders deliver new events while the replay runs.
            Map<String, Integer> answers = new TreeMap<>();
            long end = System.nanoTime() + SENDING.toNanos();
            for (int i = 0; System.nanoTime() < end; i++) {
                String id = "new-" + prefix + i;
                answers.put(id, webhooks.send(webhooks.standard("it", id, "{\"type\":\"flow.new\"}")).statusCode());
                Webhooks.sleep(Duration.ofMillis(50));
            }
            assertTrue(answers.values().stream().allMatch(status -> status == 202), "every new delivery acked: "
                    + answers.values().stream().filter(status -> status != 202).toList());
            Await.until(() -> ledger.statuses("new-" + prefix).values().stream().filter("completed"::equals).count()
                    == answers.size(), Duration.ofSeconds(60), "every new delivery processed");
            JsonObject during = json(webhooks.send(webhooks.operator("api/replays/" + job).GET()).body());
            List<Duration> waits = waits("new-" + prefix);
            Duration longest = waits.stream().max(Duration::compareTo).orElseThrow();
            assertTrue(longest.compareTo(AHEAD) <= 0, "new deliveries processed within " + AHEAD.toSeconds()
                    + " s of their receipt while the replay ran, the longest took " + longest.toMillis() + " ms");
            assertEquals("running", during.getString("status"),
                    "the replay's backlog was still waiting when every new delivery was processed: " + during);

            Await.until(() -> !"running".equals(json(webhooks.send(webhooks.operator("api/replays/" + job).GET()).body())
                    .getString("status")), Duration.ofMinutes(15), "the replay finished");
            JsonObject done = json(webhooks.send(webhooks.operator("api/replays/" + job).GET()).body());
            assertEquals("completed", done.getString("status"), done.toString());
            assertEquals(BACKLOG, done.getInt("matched"), done.toString());
            assertEquals(BACKLOG, done.getInt("queued"), done.toString());
            Await.until(() -> ledger.effects(prefix).size() == BACKLOG, Duration.ofMinutes(5), "every replayed event ran");
            Map<String, Integer> effects = ledger.effects(prefix);
            assertTrue(effects.values().stream().allMatch(runs -> runs == 1), "each replayed event ran once");
            Ledger.report("bulk replay of " + BACKLOG + " events while senders deliver", new Ledger.Verdict(
                            answers.size(), answers.size(), 0, 0, answers.size(), 0, 0, 0, 0),
                    "every new delivery 202, processed within " + longest.toMillis() + " ms while the replay "
                            + "waited; the replay then ran each of its events once");
            assertTrue(server.stop(), "SIGTERM stops the server");
        }
    }

    private static HttpResponse<String> startJob(Webhooks webhooks, String body) {
        return webhooks.send(webhooks.operator("api/replays").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private static JsonObject json(String body) {
        try (var reader = Json.createReader(new StringReader(body))) {
            return reader.readObject();
        }
    }

    private static Connection database() throws SQLException {
        return DriverManager.getConnection(ItEnvironment.databaseUrl(), System.getProperty("hookstile.test.db.user"),
                System.getProperty("hookstile.test.db.password"));
    }

    /** Events as the consumer records them, straight into the database: the backlog without an hour of sending. */
    private static void insertCompleted(String prefix, String type, Instant base, int count) throws SQLException {
        try (Connection db = database();
             PreparedStatement insert = db.prepareStatement("""
                     INSERT INTO received_event (source, event_id, provider, type, status, attempts, received_at,
                                                 processed_at, updated_at, headers, payload)
                     VALUES ('it', ?, 'standard-webhooks', ?, 'completed', 1, ?, ?, ?, '{}', ?)""")) {
            db.setAutoCommit(false);
            for (int i = 0; i < count; i++) {
                Timestamp at = Timestamp.from(base.plusMillis(i));
                insert.setString(1, prefix + i);
                insert.setString(2, type);
                insert.setTimestamp(3, at);
                insert.setTimestamp(4, at);
                insert.setTimestamp(5, at);
                insert.setBytes(6, ("{\"type\":\"" + type + "\",\"n\":" + i + "}").getBytes(StandardCharsets.UTF_8));
                insert.addBatch();
                if (i % 1_000 == 999) {
                    insert.executeBatch();
                }
            }
            insert.executeBatch();
            db.commit();
        }
    }

    /** From receipt to processing, of each event with this prefix. */
    private static List<Duration> waits(String prefix) throws SQLException {
        var waits = new ArrayList<Duration>();
        try (Connection db = database();
             PreparedStatement select = db.prepareStatement("SELECT received_at, processed_at FROM received_event"
                     + " WHERE source = 'it' AND event_id LIKE ?")) {
            select.setString(1, prefix + "%");
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    waits.add(Duration.between(rows.getTimestamp(1).toInstant(), rows.getTimestamp(2).toInstant()));
                }
            }
        }
        return waits;
    }
}
