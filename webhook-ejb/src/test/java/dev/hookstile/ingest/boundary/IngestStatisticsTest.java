package dev.hookstile.ingest.boundary;

import dev.hookstile.ingest.Outcome;
import dev.hookstile.ingest.Series;
import dev.hookstile.ingest.control.Tally;
import dev.hookstile.platform.boundary.SchemaMigration;
import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The overview's hour, day and series from the buckets of two instances and this instance's counts not written yet,
 * on the embedded database after every migration.
 */
class IngestStatisticsTest {

    private static final long NOW = Instant.parse("2026-11-25T12:34:56Z").toEpochMilli();
    private static final long HOUR = Duration.ofHours(1).toMillis();

    @Test
    void theHourAndTheDayAddUpBucketsHoursAndWhatIsNotWrittenYet() throws SQLException {
        var statistics = statistics("day");
        try (Connection connection = statistics.dataSource.getConnection()) {
            IngestBuckets.write(connection, List.of(delta(NOW - 20_000, 5, 1, 0), delta(NOW - 2 * HOUR, 7, 0, 2),
                    // In the day's first, partial hour, after its start: counted.
                    delta(NOW - 24 * HOUR + 30_000, 11, 0, 0),
                    // In that hour, before the day's start: not counted, though its hour is.
                    delta(NOW - 24 * HOUR - 60_000, 100, 0, 0),
                    delta(NOW - 26 * HOUR, 1000, 0, 0)), "a");
            IngestBuckets.write(connection, List.of(delta(NOW - 20_000, 3, 0, 1)), "b");
        }
        statistics.metrics.tally().count("gh", Outcome.ACCEPTED, NOW - 1_000);

        IngestStatistics.SourceTotals gh = statistics.bySource(NOW).get("gh");

        assertEquals(new IngestStatistics.Totals(9, 1, 1), gh.lastHour());
        assertEquals(new IngestStatistics.Totals(27, 1, 3), gh.lastDay());
        assertEquals(Instant.ofEpochMilli(NOW - 1_000), gh.lastEventAt());
    }

    @Test
    void theSeriesIsOfOneSourceOrOfAllInEventsPerSecond() throws SQLException {
        var statistics = statistics("series");
        long last = Series.bucketOf(NOW) - Series.BUCKET_MILLIS;
        try (Connection connection = statistics.dataSource.getConnection()) {
            IngestBuckets.write(connection, List.of(delta(last, 20, 0, 0),
                    new Tally.Delta(last, "pay", 10, 0, 5, last)), "a");
        }

        Series all = statistics.series(null, NOW);
        Series gh = statistics.series("gh", NOW);

        assertEquals(3.0, all.accepted()[Series.BUCKETS - 1]);
        assertEquals(0.5, all.rejected()[Series.BUCKETS - 1]);
        assertEquals(2.0, gh.accepted()[Series.BUCKETS - 1]);
        assertEquals(0.0, gh.rejected()[Series.BUCKETS - 1]);
    }

    private static Tally.Delta delta(long at, long accepted, long duplicate, long rejected) {
        return new Tally.Delta(Series.bucketOf(at), "gh", accepted, duplicate, rejected, accepted > 0 ? at : 0);
    }

    private static IngestStatistics statistics(String name) {
        var h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:statistics-" + name
                + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;DB_CLOSE_DELAY=-1");
        Flyway.configure().dataSource(h2).locations("classpath:db/migration").table("hookstile_schema_history")
                .placeholders(SchemaMigration.placeholders(false)).load().migrate();
        var statistics = new IngestStatistics();
        statistics.dataSource = h2;
        statistics.metrics = new DeliveryMetrics();
        return statistics;
    }
}
