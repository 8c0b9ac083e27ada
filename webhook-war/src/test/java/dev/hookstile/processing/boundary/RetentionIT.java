package dev.hookstile.processing.boundary;

import dev.hookstile.it.DeployedHookstile;
import dev.hookstile.it.ItEnvironment;
import dev.hookstile.it.Webhooks;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * The retention on the running server (the test configuration sweeps every 2 s): old completed and ignored events
 * go with their history, and a body they shared with the last of them; dead, retrying and recent ones stay; no source
 * keeps less than its sender's retry window.
 * Events are written straight into the database with old receipt times, as months of traffic would have left them.
 */
class RetentionIT extends DeployedHookstile {

    private static final Duration SWEEPS = Duration.ofSeconds(20);

    @Test
    void oldFinishedEventsAreDeletedWithTheirHistoryAndNothingElseIs() throws Exception {
        assumeFalse(ItEnvironment.databaseUrl().isEmpty(), "needs PostgreSQL: the embedded database is the server's");
        String run = UUID.randomUUID().toString();
        Instant old = Instant.now().minus(Duration.ofDays(40));
        try (Connection db = database()) {
            insert(db, "it", "old-completed-" + run, "completed", old);
            insert(db, "it", "old-ignored-" + run, "ignored", old);
            insert(db, "it", "old-dead-" + run, "dead", old);
            insert(db, "it", "old-retrying-" + run, "retrying", old);
            insert(db, "it", "recent-completed-" + run, "completed", Instant.now().minus(Duration.ofDays(29)));
            insert(db, "it", "replayed-completed-" + run, "completed", old);
            touch(db, "it", "replayed-completed-" + run, Instant.now());

            awaitGone(db, "it", "old-completed-" + run);
            awaitGone(db, "it", "old-ignored-" + run);
            assertEquals(0, attempts(db, "it", "old-completed-" + run), "the history went with the event");
            assertEquals(1, count(db, "it", "old-dead-" + run), "dead events wait for an operator");
            assertEquals(1, count(db, "it", "old-retrying-" + run), "unfinished events are never deleted");
            assertEquals(1, count(db, "it", "recent-completed-" + run), "30 days are kept by default");
            assertEquals(1, count(db, "it", "replayed-completed-" + run),
                    "an old event run again lately is kept for the retention from its last change");
        }
    }

    private static void touch(Connection db, String source, String id, Instant at) throws SQLException {
        try (PreparedStatement update = db.prepareStatement(
                "UPDATE received_event SET updated_at = ? WHERE source = ? AND event_id = ?")) {
            update.setTimestamp(1, Timestamp.from(at));
            update.setString(2, source);
            update.setString(3, id);
            update.executeUpdate();
        }
    }

    @Test
    void aSharedBodyGoesWithTheLastEventThatUsesIt() throws Exception {
        assumeFalse(ItEnvironment.databaseUrl().isEmpty(), "needs PostgreSQL: the embedded database is the server's");
        String run = UUID.randomUUID().toString();
        Instant old = Instant.now().minus(Duration.ofDays(40));
        String expiring = "expiring-" + run;
        String kept = "kept-" + run;
        try (Connection db = database()) {
            insertBody(db, expiring, old);
            insertBody(db, kept, old);
            insertSharing(db, "old-a-" + run, "completed", expiring, old);
            insertSharing(db, "old-b-" + run, "ignored", expiring, old);
            insertSharing(db, "old-c-" + run, "completed", kept, old);
            insertSharing(db, "old-dead-" + run, "dead", kept, old);

            awaitGone(db, "it", "old-a-" + run);
            awaitGone(db, "it", "old-b-" + run);
            awaitGone(db, "it", "old-c-" + run);
            assertEquals(0, bodies(db, expiring), "no event uses it any more");
            assertEquals(1, bodies(db, kept), "a dead event still uses it");
            assertEquals(1, count(db, "it", "old-dead-" + run));
        }
    }

    /** The source ghbody asks for 1 day (webhook-war/pom.xml); GitHub redelivers for 3, so 3 it is. */
    @Test
    void aSourceNeverKeepsLessThanItsSendersRetryWindow() throws Exception {
        assumeFalse(ItEnvironment.databaseUrl().isEmpty(), "needs PostgreSQL: the embedded database is the server's");
        String run = UUID.randomUUID().toString();
        try (Connection db = database()) {
            insert(db, "ghbody", "two-days-" + run, "completed", Instant.now().minus(Duration.ofDays(2)));
            insert(db, "ghbody", "four-days-" + run, "completed", Instant.now().minus(Duration.ofDays(4)));

            awaitGone(db, "ghbody", "four-days-" + run);
            assertEquals(1, count(db, "ghbody", "two-days-" + run), "within GitHub's redelivery window");
        }
    }

    /**
     * GitHub signs no timestamp: a delivery captured before its event was deleted still verifies after it. Its key is
     * kept as a tombstone, and the replay is a duplicate. (The source gh deduplicates on the id alone.)
     */
    @Test
    void aDeliveryCapturedBeforeTheRetentionIsNotProcessedAgainAfterItsEventWasDeleted() throws Exception {
        assumeFalse(ItEnvironment.databaseUrl().isEmpty(), "needs PostgreSQL: the embedded database is the server's");
        String id = "captured-" + UUID.randomUUID();
        String body = "{\"action\":\"opened\",\"issue\":{\"number\":" + System.nanoTime() + "}}";
        Instant processedThen = Instant.now().minus(Duration.ofDays(40));
        try (Connection db = database()) {
            // Processed 40 days ago, as the sender's capture of it was made; the retention keeps 30.
            insert(db, "gh", id, "completed", processedThen);
            awaitGone(db, "gh", id);

            HttpResponse<String> replay = webhooks.send(webhooks.github(id, "issues", body, Webhooks.GITHUB_SECRET));

            assertTrue(replay.statusCode() == 202 || replay.statusCode() == 200, replay.body());
            awaitNotQueued("gh", id);
            JsonObject state = webhooks.recorded("gh", id);
            assertEquals("absent", state.getString("status"), "the replay was not claimed: " + state);
            assertEquals(0, state.getInt("effects"), "the handlers did not run again");
            assertEquals(1, tombstones(db, "gh", id), "the event's key outlives it");
        }
    }

    /** HOOKSTILE_RETENTION_TOMBSTONE_DAYS, 400 by default: a tombstone older than that goes too. */
    @Test
    void tombstonesHaveARetentionOfTheirOwn() throws Exception {
        assumeFalse(ItEnvironment.databaseUrl().isEmpty(), "needs PostgreSQL: the embedded database is the server's");
        String run = UUID.randomUUID().toString();
        try (Connection db = database()) {
            tombstone(db, "gh", "ancient-" + run, Instant.now().minus(Duration.ofDays(401)));
            tombstone(db, "gh", "last-year-" + run, Instant.now().minus(Duration.ofDays(365)));

            long deadline = System.nanoTime() + SWEEPS.toNanos();
            while (tombstones(db, "gh", "ancient-" + run) > 0) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the 401 days old tombstone is still there");
                }
                Webhooks.sleep(Duration.ofMillis(500));
            }
            assertEquals(1, tombstones(db, "gh", "last-year-" + run), "kept for 400 days");
        }
    }

    /** Waits until no event queue holds a message of the event: a consumer took it and finished with it. */
    private void awaitNotQueued(String source, String id) {
        long deadline = System.nanoTime() + SWEEPS.toNanos();
        while (true) {
            HttpResponse<String> queued = webhooks.get("it/queued/" + source + "/" + id);
            assertEquals(200, queued.statusCode(), queued.body());
            if ("0".equals(queued.body())) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(source + "/" + id + " is still queued after " + SWEEPS.toSeconds() + " s");
            }
            Webhooks.sleep(Duration.ofMillis(100));
        }
    }

    private static void tombstone(Connection db, String source, String id, Instant receivedAt) throws SQLException {
        try (PreparedStatement insert = db.prepareStatement(
                "INSERT INTO event_tombstone (source, event_id, received_at) VALUES (?, ?, ?)")) {
            insert.setString(1, source);
            insert.setString(2, id);
            insert.setTimestamp(3, Timestamp.from(receivedAt));
            insert.executeUpdate();
        }
    }

    private static int tombstones(Connection db, String source, String id) throws SQLException {
        return single(db, "SELECT COUNT(*) FROM event_tombstone WHERE source = ? AND event_id = ?", source, id);
    }

    private static Connection database() throws SQLException {
        return DriverManager.getConnection(ItEnvironment.databaseUrl(), System.getProperty("hookstile.test.db.user"),
                System.getProperty("hookstile.test.db.password"));
    }

    private static void insert(Connection db, String source, String id, String status, Instant receivedAt)
            throws SQLException {
        try (PreparedStatement event = db.prepareStatement("""
                INSERT INTO received_event (source, event_id, provider, type, status, attempts, received_at,
                                            processed_at, updated_at, headers, payload)
                VALUES (?, ?, 'test', 'old.event', ?, 1, ?, ?, ?, '{}', ?)""");
             PreparedStatement attempt = db.prepareStatement("""
                     INSERT INTO event_attempt (source, event_id, attempt, outcome, at) VALUES (?, ?, 1, ?, ?)""")) {
            Timestamp at = Timestamp.from(receivedAt);
            event.setString(1, source);
            event.setString(2, id);
            event.setString(3, status);
            event.setTimestamp(4, at);
            event.setTimestamp(5, at);
            event.setTimestamp(6, at);
            event.setBytes(7, "{}".getBytes());
            event.executeUpdate();
            attempt.setString(1, source);
            attempt.setString(2, id);
            attempt.setString(3, status);
            attempt.setTimestamp(4, at);
            attempt.executeUpdate();
        }
    }

    private static void insertBody(Connection db, String digest, Instant at) throws SQLException {
        try (PreparedStatement body = db.prepareStatement(
                "INSERT INTO event_body (digest, body, created_at) VALUES (?, ?, ?)")) {
            body.setString(1, digest);
            body.setBytes(2, "{\"shared\":true}".getBytes());
            body.setTimestamp(3, Timestamp.from(at));
            body.executeUpdate();
        }
    }

    private static void insertSharing(Connection db, String id, String status, String digest, Instant receivedAt)
            throws SQLException {
        try (PreparedStatement event = db.prepareStatement("""
                INSERT INTO received_event (source, event_id, provider, type, status, attempts, received_at,
                                            processed_at, updated_at, headers, body_digest)
                VALUES ('it', ?, 'meta', 'old.event', ?, 1, ?, ?, ?, '{}', ?)""")) {
            Timestamp at = Timestamp.from(receivedAt);
            event.setString(1, id);
            event.setString(2, status);
            event.setTimestamp(3, at);
            event.setTimestamp(4, at);
            event.setTimestamp(5, at);
            event.setString(6, digest);
            event.executeUpdate();
        }
    }

    private static int bodies(Connection db, String digest) throws SQLException {
        try (PreparedStatement query = db.prepareStatement("SELECT COUNT(*) FROM event_body WHERE digest = ?")) {
            query.setString(1, digest);
            try (var rows = query.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        }
    }

    private static void awaitGone(Connection db, String source, String id) throws SQLException {
        long deadline = System.nanoTime() + SWEEPS.toNanos();
        while (count(db, source, id) > 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(source + "/" + id + " is still there after " + SWEEPS.toSeconds() + " s");
            }
            Webhooks.sleep(Duration.ofMillis(500));
        }
    }

    private static int count(Connection db, String source, String id) throws SQLException {
        return single(db, "SELECT COUNT(*) FROM received_event WHERE source = ? AND event_id = ?", source, id);
    }

    private static int attempts(Connection db, String source, String id) throws SQLException {
        return single(db, "SELECT COUNT(*) FROM event_attempt WHERE source = ? AND event_id = ?", source, id);
    }

    private static int single(Connection db, String sql, String source, String id) throws SQLException {
        try (PreparedStatement query = db.prepareStatement(sql)) {
            query.setString(1, source);
            query.setString(2, id);
            try (var rows = query.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        }
    }
}
