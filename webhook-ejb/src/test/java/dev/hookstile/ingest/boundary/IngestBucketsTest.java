package dev.hookstile.ingest.boundary;

import dev.hookstile.ingest.control.Tally;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The buckets' upsert on the embedded database (H2 in PostgreSQL mode, as the quick start runs it). */
class IngestBucketsTest {

    private static final long T0 = 1_764_000_000_000L;

    @Test
    void deltasAreAddedToTheInstancesBucketsAndHoursAndTheNewestEventIsKept() throws SQLException, IOException {
        try (Connection h2 = DriverManager.getConnection(
                "jdbc:h2:mem:buckets;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH")) {
            try (Statement ddl = h2.createStatement()) {
                for (String name : List.of("V10__ingest_bucket.sql", "V11__ingest_hour.sql")) {
                    String migration = new String(IngestBucketsTest.class.getResourceAsStream(
                            "/db/migration/" + name).readAllBytes(), StandardCharsets.UTF_8);
                    // The table only: the indexes are on received_event, which this test does not create.
                    ddl.execute(migration.substring(0, migration.indexOf(");") + 2));
                }
            }

            IngestBuckets.write(h2, List.of(new Tally.Delta(T0, "gh", 2, 1, 0, T0 + 5),
                    new Tally.Delta(T0, "pay", 0, 0, 1, 0)), "a");
            IngestBuckets.write(h2, List.of(new Tally.Delta(T0, "gh", 3, 0, 1, T0 + 2),
                    new Tally.Delta(T0, "pay", 1, 0, 0, T0 + 9)), "a");
            IngestBuckets.write(h2, List.of(new Tally.Delta(T0, "gh", 7, 0, 0, T0 + 1)), "b");
            IngestBuckets.write(h2, List.of(new Tally.Delta(T0 + 10_000, "gh", 1, 0, 0, T0 + 10_001)), "b");

            try (Statement query = h2.createStatement();
                 ResultSet rows = query.executeQuery("SELECT source, instance, accepted, duplicate, rejected,"
                         + " last_event_at FROM ingest_bucket ORDER BY source, instance, bucket_start")) {
                assertRow(rows, "gh", "a", 5, 1, 1, T0 + 5);
                assertRow(rows, "gh", "b", 7, 0, 0, T0 + 1);
                assertRow(rows, "gh", "b", 1, 0, 0, T0 + 10_001);
                assertRow(rows, "pay", "a", 1, 0, 1, T0 + 9);
                assertEquals(false, rows.next());
            }
            try (Statement query = h2.createStatement();
                 ResultSet rows = query.executeQuery("SELECT source, instance, accepted, duplicate, rejected,"
                         + " last_event_at, hour_start FROM ingest_hour ORDER BY source, instance")) {
                assertRow(rows, "gh", "a", 5, 1, 1, T0 + 5);
                assertEquals(T0 - T0 % 3_600_000, rows.getTimestamp(7).getTime(), "the hour holding the buckets");
                assertRow(rows, "gh", "b", 8, 0, 0, T0 + 10_001);
                assertRow(rows, "pay", "a", 1, 0, 1, T0 + 9);
                assertEquals(false, rows.next());
            }
        }
    }

    private static void assertRow(ResultSet rows, String source, String instance, long accepted, long duplicate,
                                  long rejected, long lastEventAt) throws SQLException {
        assertEquals(true, rows.next());
        assertEquals(source, rows.getString(1));
        assertEquals(instance, rows.getString(2));
        assertEquals(accepted, rows.getLong(3));
        assertEquals(duplicate, rows.getLong(4));
        assertEquals(rejected, rows.getLong(5));
        assertEquals(lastEventAt, rows.getTimestamp(6).getTime());
    }
}
