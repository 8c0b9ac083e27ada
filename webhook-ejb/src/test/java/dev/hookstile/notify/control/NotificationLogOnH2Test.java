package dev.hookstile.notify.control;

import dev.hookstile.MapConfig;
import dev.hookstile.outbox.boundary.ForwardingSchedule;
import dev.hookstile.outbox.control.OutboxStatements;
import dev.hookstile.platform.boundary.SchemaMigration;
import dev.hookstile.source.Destination;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The notifier's steps on the embedded database (H2 in PostgreSQL mode), after every migration, with the outbox's
 * own insert: a storm of deaths is a handful of notifications whose counts add up, and announcing again adds none.
 */
class NotificationLogOnH2Test {

    private static final Instant T0 = Instant.parse("2026-11-25T10:00:00Z");
    private static final Duration MINUTE = Duration.ofSeconds(60);
    private static final Duration GRACE = Duration.ofSeconds(30);
    private static final String URL = "https://ops.example.com/hooks";

    private Connection connection;
    private NotificationLog log;

    @BeforeEach
    void migrate() throws SQLException {
        var h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:notify-" + UUID.randomUUID()
                + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;DB_CLOSE_DELAY=-1");
        Flyway.configure().dataSource(h2).locations("classpath:db/migration").table("hookstile_schema_history")
                .placeholders(SchemaMigration.placeholders(false)).load().migrate();
        connection = h2.getConnection();
        var settings = new NotifySettings(new MapConfig(Map.of("hookstile.notify.url", URL,
                "hookstile.notify.secret", "whsec_YS1ub3RpZnktc2VjcmV0LW9mLTMyLWJ5dGVzLWxvbmc=")));
        log = new NotificationLog() {
            @Override
            Connection connection() {
                return connection;
            }
        };
        log.settings = settings;
        log.outbox = new ForwardingSchedule() {
            @Override
            public boolean scheduleNotification(String id, Destination endpoint, byte[] body, Instant now) {
                try (PreparedStatement insert = connection.prepareStatement(OutboxStatements.SCHEDULE_NOTIFICATION)) {
                    insert.setString(1, id);
                    insert.setString(2, endpoint.url().toString());
                    insert.setTimestamp(3, Timestamp.from(now));
                    insert.setTimestamp(4, Timestamp.from(now));
                    insert.setBytes(5, body);
                    return insert.executeUpdate() == 1;
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            }
        };
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
    }

    private void attempts(String source, String outcome, String failure, Instant from, int count, long stepMillis)
            throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("""
                INSERT INTO event_attempt (source, event_id, attempt, outcome, failure, error, at)
                VALUES (?, ?, 1, ?, ?, ?, ?)""")) {
            for (int i = 0; i < count; i++) {
                insert.setString(1, source);
                insert.setString(2, UUID.randomUUID().toString());
                insert.setString(3, outcome);
                insert.setString(4, failure);
                insert.setString(5, failure == null ? null : "com.example.Broken: event " + i);
                insert.setTimestamp(6, Timestamp.from(from.plusMillis(i * stepMillis)));
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    private record Scheduled(String id, JsonObject body, String destination) {
    }

    private List<Scheduled> outbox() throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(
                "SELECT event_id, body, destination, source FROM outbox ORDER BY id");
             ResultSet rows = query.executeQuery()) {
            var scheduled = new ArrayList<Scheduled>();
            while (rows.next()) {
                assertEquals(OutboxStatements.NOTIFICATIONS, rows.getString(4));
                scheduled.add(new Scheduled(rows.getString(1),
                        Json.createReader(new ByteArrayInputStream(rows.getBytes(2))).readObject(), rows.getString(3)));
            }
            return scheduled;
        }
    }

    private boolean announce(Instant now) {
        return log.announceDeaths(Window.closedUntil(now, MINUTE, GRACE), now.minus(Duration.ofDays(1)), MINUTE, 60,
                now);
    }

    @Test
    void aStormOfDeathsIsOneNotificationPerWindowSourceAndFailureCountingEveryDeath() throws SQLException {
        assertFalse(announce(T0.plusSeconds(5)), "the first run marks where deaths become news");
        // 10,000 deaths of one cause over three minutes, and a few others.
        attempts("gh", "dead", "permanent", T0.plusSeconds(10), 10_000, 17);
        attempts("gh", "dead", "transient", T0.plusSeconds(20), 3, 1000);
        attempts("pay", "dead", "permanent", T0.plusSeconds(30), 2, 1000);
        attempts("gh", "retrying", "transient", T0.plusSeconds(10), 50, 100);
        attempts("gh", "completed", null, T0.plusSeconds(10), 500, 10);

        assertFalse(announce(T0.plus(MINUTE.multipliedBy(3)).plus(GRACE)));

        List<Scheduled> scheduled = outbox();
        long storm = scheduled.stream().filter(s -> s.id().startsWith("events.dead:gh:permanent:"))
                .mapToLong(s -> s.body().getInt("count")).sum();
        assertEquals(10_000, storm, "every death counted once");
        assertEquals(3, scheduled.stream().filter(s -> s.id().startsWith("events.dead:gh:permanent:")).count(),
                "one per window: " + scheduled.stream().map(Scheduled::id).toList());
        assertEquals(5, scheduled.size(), "and one each for the other causes");
        assertEquals(scheduled.size(), scheduled.stream().map(Scheduled::id).distinct().count());
        assertTrue(scheduled.stream().allMatch(s -> s.destination().equals(URL)));
        JsonObject first = scheduled.stream().filter(s -> s.id().equals("events.dead:gh:permanent:"
                + T0.getEpochSecond())).findFirst().orElseThrow().body();
        assertEquals("2026-11-25T10:00:10Z", first.getString("first"));
        assertTrue(first.getString("last").startsWith("2026-11-25T10:00:59."), first.toString());
        assertTrue(first.getString("sample").startsWith("com.example.Broken: event "), first.toString());
        assertEquals("/console/#/dead?source=gh", first.getString("link"));
        JsonObject transients = scheduled.stream().filter(s -> s.id().startsWith("events.dead:gh:transient:"))
                .findFirst().orElseThrow().body();
        assertEquals(3, transients.getInt("count"));
    }

    @Test
    void aWindowIsAnnouncedOnlyOnceClosedAndNeverTwice() throws SQLException {
        announce(T0);
        attempts("gh", "dead", "permanent", T0.plusSeconds(50), 20, 1000); // 10:00:50 to 10:01:09

        announce(T0.plusSeconds(89));
        assertEquals(List.of(), outbox(), "10:00-10:01 closes at 10:01:30");

        announce(T0.plusSeconds(90));
        assertEquals(List.of("events.dead:gh:permanent:" + T0.getEpochSecond()),
                outbox().stream().map(Scheduled::id).toList());
        assertEquals(10, outbox().get(0).body().getInt("count"));

        announce(T0.plusSeconds(150));
        assertEquals(2, outbox().size());
        assertEquals(10, outbox().get(1).body().getInt("count"), "the rest in the next window");

        // Another instance, or a rerun from an older mark, computes the same notifications: the outbox keeps one.
        try (PreparedStatement rewind = connection.prepareStatement(
                "UPDATE notify_mark SET at = ? WHERE name = 'events.dead'")) {
            rewind.setTimestamp(1, Timestamp.from(T0));
            rewind.executeUpdate();
        }
        announce(T0.plusSeconds(150));
        assertEquals(2, outbox().size());
    }

    @Test
    void anOldMarkAnnouncesAtMostTheLookbackAndABacklogOfWindowsGoesInSteps() throws SQLException {
        announce(T0);
        attempts("gh", "dead", "permanent", T0.plusSeconds(10), 1, 1);
        Instant muchLater = T0.plus(Duration.ofDays(3));
        attempts("gh", "dead", "permanent", muchLater.minus(Duration.ofHours(2)), 100, 60_000); // 100 windows

        boolean more = announce(muchLater);
        assertTrue(more, "60 windows with deaths in one step, the rest in the next");
        assertEquals(60, outbox().size());
        assertFalse(announce(muchLater));
        assertEquals(100, outbox().size(), "the death of three days ago is older than the lookback: not news");
    }

    @Test
    void aSourceFallsBehindAndCatchesUpOnceHoweverOftenItIsSeen() throws SQLException {
        Instant oldest = T0.minusSeconds(400);

        assertTrue(log.fellBehind("gh", oldest, 12, T0));
        assertFalse(log.fellBehind("gh", oldest, 13, T0.plusSeconds(10)), "behind already: another instance saw it");
        assertEquals(Map.of("gh", T0), log.behind());
        assertTrue(log.caughtUp("gh", 0, T0.plusSeconds(60)));
        assertFalse(log.caughtUp("gh", 0, T0.plusSeconds(70)));
        assertFalse(log.caughtUp("pay", 0, T0.plusSeconds(70)), "never behind");
        assertEquals(Map.of(), log.behind());

        List<Scheduled> scheduled = outbox();
        assertEquals(List.of("processing.behind:gh:" + T0.getEpochSecond(),
                "processing.caught_up:gh:" + T0.plusSeconds(60).getEpochSecond()),
                scheduled.stream().map(Scheduled::id).toList());
        JsonObject behind = scheduled.get(0).body();
        assertEquals(12, behind.getInt("count"));
        assertEquals("2026-11-25T09:53:20Z", behind.getString("first"));
        assertEquals("/console/#/overview?source=gh", behind.getString("link"));
        JsonObject caughtUp = scheduled.get(1).body();
        assertEquals("2026-11-25T10:00:00Z", caughtUp.getString("first"), "behind since");
        assertEquals("2026-11-25T10:01:00Z", caughtUp.getString("last"));
    }

    @Test
    void theRelayTakesANotificationOnlyForTheEndpointItSendsToAndNoForwardingWithoutItsEvent() throws SQLException {
        log.fellBehind("gh", T0, 1, T0);
        try (PreparedStatement orphan = connection.prepareStatement("""
                INSERT INTO outbox (source, event_id, destination, status, attempts, next_attempt_at, created_at)
                VALUES ('gh', 'deleted-by-retention', 'https://backoffice.example.com/hooks', 'pending', 0, ?, ?)""")) {
            orphan.setTimestamp(1, Timestamp.from(T0));
            orphan.setTimestamp(2, Timestamp.from(T0));
            orphan.executeUpdate();
        }

        assertEquals(List.of("processing.behind:gh:" + T0.getEpochSecond()), due(URL));
        assertEquals(List.of(), due("https://elsewhere.example.com/hooks"));
        assertEquals(List.of(), due(null), "an instance without notifications takes none");
    }

    private List<String> due(String notificationsTo) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(OutboxStatements.DUE)) {
            query.setTimestamp(1, Timestamp.from(T0.plusSeconds(1)));
            query.setString(2, notificationsTo);
            query.setInt(3, 50);
            try (ResultSet rows = query.executeQuery()) {
                var ids = new ArrayList<String>();
                while (rows.next()) {
                    ids.add(rows.getString(3));
                    assertEquals("application/json", rows.getString(9));
                }
                return ids;
            }
        }
    }
}
