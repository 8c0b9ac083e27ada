package dev.hookstile.events.control;

/** The statements of the search keys' back-fill ({@code event_key_backfill}), run through JDBC. */
public final class KeyBackfillStatements {

    public static final String COLUMNS = "source, status, until_received_at, after_received_at, after_event_id,"
            + " scanned, written, started_at, updated_at";
    public static final String ALL = "SELECT " + COLUMNS + " FROM event_key_backfill ORDER BY source";
    public static final String ONE = "SELECT " + COLUMNS + " FROM event_key_backfill WHERE source = ?";
    public static final String RUNNING = "SELECT " + COLUMNS + " FROM event_key_backfill WHERE status = 'running'"
            + " ORDER BY source";
    public static final String START = """
            INSERT INTO event_key_backfill (source, status, until_received_at, scanned, written, started_at, updated_at)
            VALUES (?, 'running', ?, 0, 0, ?, ?)""";
    /** A finished back-fill started again: from the beginning, up to now. */
    public static final String RESTART = """
            UPDATE event_key_backfill SET status = 'running', until_received_at = ?, after_received_at = NULL,
                   after_event_id = NULL, scanned = 0, written = 0, started_at = ?, updated_at = ?
            WHERE source = ? AND status <> 'running'""";
    /** The next page of the source's events after the position, oldest first, with their bodies. */
    public static final String PAGE_FIRST = """
            SELECT e.event_id, e.received_at, COALESCE(e.payload, (SELECT b.body FROM event_body b
                   WHERE b.digest = e.body_digest))
            FROM received_event e WHERE e.source = ? AND e.received_at < ?
            ORDER BY e.received_at, e.event_id FETCH FIRST %d ROWS ONLY""";
    public static final String PAGE_AFTER = """
            SELECT e.event_id, e.received_at, COALESCE(e.payload, (SELECT b.body FROM event_body b
                   WHERE b.digest = e.body_digest))
            FROM received_event e WHERE e.source = ? AND e.received_at < ?
              AND e.received_at >= ? AND (e.received_at > ? OR e.event_id > ?)
            ORDER BY e.received_at, e.event_id FETCH FIRST %d ROWS ONLY""";
    /** The position moved on, only from where this instance read it: another instance that did the page wins. */
    public static final String ADVANCE = """
            UPDATE event_key_backfill SET after_received_at = ?, after_event_id = ?, scanned = scanned + ?,
                   written = written + ?, status = ?, updated_at = ?
            WHERE source = ? AND status = 'running' AND scanned = ?""";

    private KeyBackfillStatements() {
    }
}
