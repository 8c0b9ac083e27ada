package dev.hookstile.refusal.control;

/** The statements on {@code refused_delivery} and {@code refusal_minute}, written and read through JDBC. */
public final class RefusalStatements {

    public static final String INSERT_EXAMPLE = """
            INSERT INTO refused_delivery (refused_at, source, reason, status, detail, remote_address, headers,
                                          body_size, body_sha256, body)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""";
    /** PostgreSQL: instances add to one row atomically. */
    public static final String ADD_COUNT_POSTGRES = """
            INSERT INTO refusal_minute (minute_start, source, reason, refused) VALUES (?, ?, ?, ?)
            ON CONFLICT (minute_start, source, reason) DO UPDATE SET refused = refusal_minute.refused + EXCLUDED.refused""";
    /** H2 knows no {@code DO UPDATE}; the embedded database has one instance, so a {@code MERGE} is safe. */
    public static final String ADD_COUNT_H2 = """
            MERGE INTO refusal_minute t
            USING (SELECT CAST(? AS TIMESTAMP WITH TIME ZONE) minute_start, CAST(? AS VARCHAR(63)) source,
                          CAST(? AS VARCHAR(40)) reason, CAST(? AS BIGINT) refused) s
            ON t.minute_start = s.minute_start AND t.source = s.source AND t.reason = s.reason
            WHEN MATCHED THEN UPDATE SET refused = t.refused + s.refused
            WHEN NOT MATCHED THEN INSERT (minute_start, source, reason, refused)
                VALUES (s.minute_start, s.source, s.reason, s.refused)""";
    public static final String DELETE_OLD_EXAMPLES = "DELETE FROM refused_delivery WHERE refused_at < ?";
    public static final String DELETE_OLD_COUNTS = "DELETE FROM refusal_minute WHERE minute_start < ?";
    /** The id of the newest example beyond the count kept: it and every older one go. */
    public static final String FIRST_BEYOND = "SELECT id FROM refused_delivery ORDER BY id DESC OFFSET ? ROWS FETCH NEXT 1 ROWS ONLY";
    public static final String DELETE_UP_TO = "DELETE FROM refused_delivery WHERE id <= ?";
    /** The id of the newest kept body beyond the count of bodies kept: it and every older body go, the rows stay. */
    public static final String FIRST_BODY_BEYOND = """
            SELECT id FROM refused_delivery WHERE body IS NOT NULL ORDER BY id DESC OFFSET ? ROWS FETCH NEXT 1 ROWS ONLY""";
    public static final String DROP_BODIES_UP_TO = "UPDATE refused_delivery SET body = NULL WHERE id <= ? AND body IS NOT NULL";
    /** A list's columns: whether a body is kept, not the body (a page of 200 could be 12 MiB). */
    public static final String COLUMNS = "id, refused_at, source, reason, status, detail, remote_address, headers, "
            + "body_size, body_sha256, body IS NOT NULL";
    /** One example's columns: with its body. */
    public static final String COLUMNS_WITH_BODY = COLUMNS + ", body";
    /** Every counted source and reason since a time: refusals, and the last minute that saw one. */
    public static final String COUNTS_SINCE = """
            SELECT source, reason, SUM(refused), MAX(minute_start) FROM refusal_minute
            WHERE minute_start >= ? GROUP BY source, reason ORDER BY SUM(refused) DESC, source, reason""";

    private RefusalStatements() {
    }
}
