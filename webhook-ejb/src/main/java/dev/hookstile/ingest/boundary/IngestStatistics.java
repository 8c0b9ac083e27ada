package dev.hookstile.ingest.boundary;

import dev.hookstile.ingest.Series;
import dev.hookstile.ingest.control.Tally;
import dev.hookstile.platform.boundary.ContainerResources;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.PersistenceException;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * What ingest answered, per source, over the last hour and day, and the last 15 minutes as a series: read from
 * {@code ingest_bucket} (every instance's flushed counts, a few thousand small rows a day per source) plus what this
 * instance counted and has not written yet. Never a count over the events.
 */
@ApplicationScoped
public class IngestStatistics {

    private static final int TIMEOUT_SECONDS = 5;
    private static final String TOTALS = """
            SELECT source, SUM(accepted), SUM(duplicate), SUM(rejected), MAX(last_event_at) FROM %s
            WHERE %s >= ? AND %s < ? GROUP BY source""";
    private static final String SERIES = """
            SELECT bucket_start, SUM(accepted), SUM(duplicate), SUM(rejected) FROM ingest_bucket
            WHERE bucket_start >= ? AND bucket_start < ?""";

    @Inject
    DeliveryMetrics metrics;

    @Inject
    @ContainerResources.Database
    DataSource dataSource;

    /** Accepted, duplicate and rejected counts. */
    public record Totals(long accepted, long duplicate, long rejected) {

        Totals plus(long a, long d, long r) {
            return new Totals(accepted + a, duplicate + d, rejected + r);
        }
    }

    /**
     * A source's counts: the last hour and day are the buckets from the one holding now minus an hour (a day) to
     * the current one; {@code lastEventAt} the newest event accepted within the last day, or null.
     */
    public record SourceTotals(Totals lastHour, Totals lastDay, Instant lastEventAt) {
    }

    /**
     * Every source with counts in the last day, by name (including {@code DeliveryMetrics.OTHER}). The hour is the
     * ten-second buckets since the one holding now minus an hour; the day the hourly buckets after the one holding
     * now minus a day, and the ten-second buckets of that first, partial hour: a day to ten seconds, reading at most
     * a few hundred rows per source and instance.
     */
    public Map<String, SourceTotals> bySource(long nowMillis) {
        long hour = Series.bucketOf(nowMillis - Duration.ofHours(1).toMillis());
        long day = Series.bucketOf(nowMillis - Duration.ofDays(1).toMillis());
        long firstFullHour = Math.floorDiv(day + IngestBuckets.HOUR_MILLIS - 1, IngestBuckets.HOUR_MILLIS)
                * IngestBuckets.HOUR_MILLIS;
        // Later than any bucket, with room for instances whose clocks run ahead.
        long end = nowMillis + Duration.ofDays(1).toMillis();
        Map<String, long[]> sums = new HashMap<>();
        try (Connection connection = dataSource.getConnection()) {
            add(connection, "ingest_bucket", "bucket_start", hour, end, sums, 0);
            add(connection, "ingest_bucket", "bucket_start", day, firstFullHour, sums, 3);
            add(connection, "ingest_hour", "hour_start", firstFullHour, end, sums, 3);
        } catch (SQLException e) {
            throw new PersistenceException(e.getMessage(), e);
        }
        for (Tally.Delta delta : metrics.tally().pending()) {
            long[] s = sums.computeIfAbsent(delta.source(), k -> new long[7]);
            if (delta.bucketStart() >= hour) {
                s[0] += delta.accepted();
                s[1] += delta.duplicate();
                s[2] += delta.rejected();
            }
            if (delta.bucketStart() >= day) {
                s[3] += delta.accepted();
                s[4] += delta.duplicate();
                s[5] += delta.rejected();
            }
            s[6] = Math.max(s[6], delta.lastEventAt());
        }
        Map<String, SourceTotals> totals = new HashMap<>();
        sums.forEach((source, s) -> totals.put(source, new SourceTotals(new Totals(s[0], s[1], s[2]),
                new Totals(s[3], s[4], s[5]), s[6] == 0 ? null : Instant.ofEpochMilli(s[6]))));
        return totals;
    }

    /** Adds the sums of {@code [from, to)} of a table by source to {@code sums} from index {@code at} on. */
    private static void add(Connection connection, String table, String column, long from, long to,
                            Map<String, long[]> sums, int at) throws SQLException {
        if (from >= to) {
            return;
        }
        try (PreparedStatement query = connection.prepareStatement(TOTALS.formatted(table, column, column))) {
            query.setQueryTimeout(TIMEOUT_SECONDS);
            query.setTimestamp(1, new Timestamp(from));
            query.setTimestamp(2, new Timestamp(to));
            try (ResultSet row = query.executeQuery()) {
                while (row.next()) {
                    long[] s = sums.computeIfAbsent(row.getString(1), k -> new long[7]);
                    s[at] += row.getLong(2);
                    s[at + 1] += row.getLong(3);
                    s[at + 2] += row.getLong(4);
                    Timestamp last = row.getTimestamp(5);
                    if (last != null) {
                        s[6] = Math.max(s[6], last.getTime());
                    }
                }
            }
        }
    }

    /** The last 15 minutes of {@code source}, or of every source (refusals for no source included) when null. */
    public Series series(String source, long nowMillis) {
        long start = Series.windowStart(nowMillis);
        long end = Series.bucketOf(nowMillis);
        List<Series.Counts> counts = new ArrayList<>();
        String sql = SERIES + (source == null ? "" : " AND source = ?") + " GROUP BY bucket_start";
        try (Connection connection = dataSource.getConnection();
             PreparedStatement query = connection.prepareStatement(sql)) {
            query.setQueryTimeout(TIMEOUT_SECONDS);
            query.setTimestamp(1, new Timestamp(start));
            query.setTimestamp(2, new Timestamp(end));
            if (source != null) {
                query.setString(3, source);
            }
            try (ResultSet row = query.executeQuery()) {
                while (row.next()) {
                    counts.add(new Series.Counts(row.getTimestamp(1).getTime(), row.getLong(2), row.getLong(3),
                            row.getLong(4)));
                }
            }
        } catch (SQLException e) {
            throw new PersistenceException(e.getMessage(), e);
        }
        for (Tally.Delta delta : metrics.tally().pending()) {
            if (source == null || source.equals(delta.source())) {
                counts.add(new Series.Counts(delta.bucketStart(), delta.accepted(), delta.duplicate(),
                        delta.rejected()));
            }
        }
        return Series.of(counts, nowMillis);
    }
}
