package dev.hookstile.events.control;

/**
 * The statements on {@code event_tombstone}: the key of an event the retention deleted, and when it was received.
 * The event's row was its deduplication key; the tombstone keeps that key, so that a delivery captured before the
 * retention is still a duplicate after it (GitHub, Shopify, Twilio, Meta and {@code hmac} sign no timestamp: their
 * deliveries can be replayed at any time). Plain SQL, run through JDBC like the claim; both PostgreSQL and H2
 * (MODE=PostgreSQL) accept it.
 */
public final class EventTombstoneStatements {

    /** A tombstone of (source, event id): the claim's guard, a primary-key probe. */
    public static final String EXISTS = "SELECT 1 FROM event_tombstone WHERE source = ? AND event_id = ?";
    /** Left by the retention, committed before the transaction that deletes the event ({@code ExpiredEvents}). */
    public static final String LEAVE = """
            INSERT INTO event_tombstone (source, event_id, received_at) VALUES (?, ?, ?)
            ON CONFLICT DO NOTHING""";
    /**
     * A batch of tombstones past their own retention, oldest first (served by the index on {@code received_at}):
     * deleted by key afterwards, as H2 has no {@code DELETE ... LIMIT} that PostgreSQL shares.
     */
    public static final String EXPIRED = """
            SELECT source, event_id FROM event_tombstone WHERE received_at < ? ORDER BY received_at LIMIT ?""";
    public static final String DELETE = "DELETE FROM event_tombstone WHERE source = ? AND event_id = ?";
    /**
     * The tombstone the retention left for an event it then did not delete (queued again by a replay meanwhile),
     * taken back while the event's row exists. Parameters: the key, twice.
     */
    public static final String TAKE_BACK = """
            DELETE FROM event_tombstone WHERE source = ? AND event_id = ?
              AND EXISTS (SELECT 1 FROM received_event WHERE source = ? AND event_id = ?)""";

    private EventTombstoneStatements() {
    }
}
