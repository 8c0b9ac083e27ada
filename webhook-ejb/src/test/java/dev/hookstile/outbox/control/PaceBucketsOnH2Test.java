package dev.hookstile.outbox.control;

import dev.hookstile.platform.boundary.SchemaMigration;
import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A destination's token bucket, as the relays of several instances take from it. */
class PaceBucketsOnH2Test {

    private static final Instant T0 = Instant.parse("2026-11-28T05:00:00Z");
    private static final List<String> SHOP = List.of("shop", "https://backoffice.example.com/hooks");
    private JdbcDataSource h2;
    private Connection first;
    private Connection second;

    @BeforeEach
    void migrate() throws SQLException {
        h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:pace-" + UUID.randomUUID()
                + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;DB_CLOSE_DELAY=-1");
        Flyway.configure().dataSource(h2).locations("classpath:db/migration").table("hookstile_schema_history")
                .placeholders(SchemaMigration.placeholders(false)).load().migrate();
        first = h2.getConnection();
        second = h2.getConnection();
    }

    @AfterEach
    void close() throws SQLException {
        first.close();
        second.close();
    }

    @Test
    void aFreshBucketGrantsOneSecondsWorthThenWhatTheRateRefills() throws SQLException {
        assertEquals(20, PaceBuckets.grant(first, SHOP, 20, 2_000, T0).granted(), "one second of burst");
        assertEquals(0, PaceBuckets.grant(first, SHOP, 20, 2_000, T0).granted(), "empty");
        assertEquals(10, PaceBuckets.grant(first, SHOP, 20, 2_000, T0.plusMillis(500)).granted(), "half a second: 10");
        assertEquals(3, PaceBuckets.grant(first, SHOP, 20, 3, T0.plusMillis(1_000)).granted(), "no more than wanted");
        assertEquals(7, PaceBuckets.grant(first, SHOP, 20, 2_000, T0.plusMillis(1_000)).granted(),
                "the rest of that refill");
        assertEquals(20, PaceBuckets.grant(first, SHOP, 20, 2_000, T0.plusSeconds(3_600)).granted(),
                "an idle hour gives one second's worth, not an hour's");
    }

    @Test
    void twoInstancesTakeFromOneBucketSoTogetherTheyKeepTheRate() throws SQLException {
        int sent = 0;
        for (int tenth = 0; tenth <= 50; tenth++) {
            Instant now = T0.plusMillis(100L * tenth);
            // Each instance's relay asks for everything it has due, its clock a little ahead of the other's.
            sent += PaceBuckets.grant(first, SHOP, 20, 2_000, now).granted();
            sent += PaceBuckets.grant(second, SHOP, 20, 2_000, now.plusMillis(30)).granted();
        }

        assertEquals(20 + 100, sent, 1, "the burst, then 20 a second for 5 seconds, between both");
    }

    @Test
    void aSlowRateStillSendsOneAtATime() throws SQLException {
        double perMinute30 = 30 / 60.0;

        assertEquals(1, PaceBuckets.grant(first, SHOP, perMinute30, 10, T0).granted(), "a bucket holds at least one");
        assertEquals(0, PaceBuckets.grant(first, SHOP, perMinute30, 10, T0.plusSeconds(1)).granted());
        assertEquals(1, PaceBuckets.grant(first, SHOP, perMinute30, 10, T0.plusSeconds(2)).granted());
    }
}
