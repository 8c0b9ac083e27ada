package dev.hookstile.ingest.control;

/**
 * The statements on {@code ingest_bucket} and {@code ingest_hour}, its hourly roll-up with the same columns (the
 * upserts take the table and its time column): what ingest counted, written by {@code IngestBuckets} through JDBC.
 */
public final class IngestBucketStatements {

    /**
     * PostgreSQL: an atomic upsert adding the deltas. H2 (the embedded database) knows no {@code DO UPDATE}: a
     * {@code MERGE}, which is safe here because only this instance writes rows with its own instance column.
     */
    public static final String UPSERT_POSTGRES = """
            INSERT INTO %1$s (%2$s, source, instance, accepted, duplicate, rejected, last_event_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (%2$s, source, instance) DO UPDATE SET
                accepted = %1$s.accepted + EXCLUDED.accepted,
                duplicate = %1$s.duplicate + EXCLUDED.duplicate,
                rejected = %1$s.rejected + EXCLUDED.rejected,
                last_event_at = GREATEST(%1$s.last_event_at, EXCLUDED.last_event_at)""";
    public static final String UPSERT_H2 = """
            MERGE INTO %1$s t
            USING (SELECT CAST(? AS TIMESTAMP WITH TIME ZONE) %2$s, CAST(? AS VARCHAR(63)) source,
                          CAST(? AS VARCHAR(64)) instance, CAST(? AS BIGINT) accepted, CAST(? AS BIGINT) duplicate,
                          CAST(? AS BIGINT) rejected, CAST(? AS TIMESTAMP WITH TIME ZONE) last_event_at) s
            ON t.%2$s = s.%2$s AND t.source = s.source AND t.instance = s.instance
            WHEN MATCHED THEN UPDATE SET accepted = t.accepted + s.accepted, duplicate = t.duplicate + s.duplicate,
                rejected = t.rejected + s.rejected,
                last_event_at = CASE WHEN t.last_event_at IS NULL OR s.last_event_at > t.last_event_at
                                     THEN s.last_event_at ELSE t.last_event_at END
            WHEN NOT MATCHED THEN INSERT (%2$s, source, instance, accepted, duplicate, rejected, last_event_at)
                VALUES (s.%2$s, s.source, s.instance, s.accepted, s.duplicate, s.rejected, s.last_event_at)""";
    public static final String DELETE_OLD = "DELETE FROM ingest_bucket WHERE bucket_start < ?";
    public static final String DELETE_OLD_HOURS = "DELETE FROM ingest_hour WHERE hour_start < ?";

    private IngestBucketStatements() {
    }
}
