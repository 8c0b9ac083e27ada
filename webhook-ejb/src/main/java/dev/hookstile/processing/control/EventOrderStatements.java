package dev.hookstile.processing.control;

/**
 * The statements on {@code event_order}, the last processed event of each order key: plain SQL through JDBC on the
 * try's connection, like the claim. Kept to SQL that PostgreSQL and H2 (MODE=PostgreSQL) both accept.
 */
public final class EventOrderStatements {

    /**
     * A key's first event inserts its row; a concurrent first try of the same key (a replay meeting the queue) waits
     * on that insert and then finds the row, instead of failing on the primary key.
     */
    public static final String FIRST = """
            INSERT INTO event_order (source, order_key, last_received_at, last_event_id, updated_at)
            VALUES (?, ?, ?, ?, ?)
            ON CONFLICT DO NOTHING""";
    /** The key's last processed receipt time, its row locked until the try ends. */
    public static final String LAST = """
            SELECT last_received_at FROM event_order WHERE source = ? AND order_key = ? FOR UPDATE""";
    /** A newer event becomes the key's last. */
    public static final String NEWER = """
            UPDATE event_order SET last_received_at = ?, last_event_id = ?, updated_at = ?
            WHERE source = ? AND order_key = ?""";

    private EventOrderStatements() {
    }
}
