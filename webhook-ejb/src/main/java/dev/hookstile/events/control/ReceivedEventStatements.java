package dev.hookstile.events.control;

import dev.hookstile.events.entity.EventStatus;

/**
 * The statements on {@code received_event} that run through JDBC on the transaction's connection: the claim, the
 * failure records and the retention's. Through EclipseLink's native queries each cost more CPU than the database
 * spent on it (profiled). Kept to SQL that PostgreSQL and H2 (MODE=PostgreSQL) both accept. The operator's reads go
 * through JPA ({@link dev.hookstile.events.entity.ReceivedEvent}).
 */
public final class ReceivedEventStatements {

    /**
     * The claim of a new event, inserted with its final status ({@code completed} or {@code ignored}): nobody sees
     * it before the transaction, handlers included, commits. The conflict target is left out on purpose: H2 (the
     * embedded database) rejects {@code ON CONFLICT (cols)}, and with a single unique key PostgreSQL means the same
     * thing by it. A duplicate yields an update count of 0 without an error, so the surrounding transaction stays
     * usable (a failed INSERT would abort a PostgreSQL transaction).
     *
     * <p>An event the retention deleted has a tombstone ({@link EventTombstoneStatements}): its claim inserts nothing
     * either, in the same statement (one more primary-key probe, no round trip). The last two parameters repeat the
     * key.
     */
    public static final String CLAIM = """
            INSERT INTO received_event (source, event_id, provider, type, status, attempts, received_at, processed_at,
                                        updated_at, headers, payload, body_digest)
            SELECT ?, ?, ?, ?, ?, ?, CAST(? AS TIMESTAMP WITH TIME ZONE), CAST(? AS TIMESTAMP WITH TIME ZONE),
                   CAST(? AS TIMESTAMP WITH TIME ZONE), ?, ?, ?
            WHERE NOT EXISTS (""" + EventTombstoneStatements.EXISTS + """
            )
            ON CONFLICT DO NOTHING""";
    /**
     * The claim of an event recorded before, allowed only while it is {@code retrying} or queued again by a replay
     * ({@code received}). Two deliveries racing for it serialise on the row lock; the loser re-reads the committed
     * status and updates nothing.
     */
    public static final String RECLAIM = """
            UPDATE received_event SET status = ?, attempts = attempts + ?, processed_at = ?, updated_at = ?,
                                      last_error = NULL
            WHERE source = ? AND event_id = ? AND status IN (""" + EventStatus.OPEN_IN_SQL + ")";
    /** Whether an event is recorded: ingest's duplicate lookup, a primary-key probe. */
    public static final String RECORDED = "SELECT 1 FROM received_event WHERE source = ? AND event_id = ?";
    /** Attempts and replay base of an event. */
    public static final String ATTEMPTS = """
            SELECT attempts, replay_base FROM received_event WHERE source = ? AND event_id = ?""";
    /** Attempts, replay base and status, locking the row until the transaction ends: failures are counted on it. */
    public static final String LOCK_STATE = """
            SELECT attempts, replay_base, status FROM received_event WHERE source = ? AND event_id = ? FOR UPDATE""";
    /** The first failure of an event, unless it is recorded or has a tombstone; the last two parameters repeat the key. */
    public static final String RECORD_FAILURE = """
            INSERT INTO received_event (source, event_id, provider, type, status, attempts, received_at, updated_at,
                                        last_error, headers, payload, body_digest)
            SELECT ?, ?, ?, ?, ?, ?, CAST(? AS TIMESTAMP WITH TIME ZONE), CAST(? AS TIMESTAMP WITH TIME ZONE), ?, ?, ?, ?
            WHERE NOT EXISTS (""" + EventTombstoneStatements.EXISTS + """
            )
            ON CONFLICT DO NOTHING""";
    /**
     * An event claimed in this transaction turned out to repeat another's body: recorded with the given status
     * ({@code ignored}) and the reason, its handlers not run.
     */
    public static final String SET_STATUS = """
            UPDATE received_event SET status = ?, last_error = ? WHERE source = ? AND event_id = ?""";
    /**
     * A batch of a source's events that the retention may delete: finished well, received before the cut-off and
     * not changed since (a replay's run counts from its end). Served by the index on (status, received_at).
     *
     * <p>The last change matters for the claim: a delivery whose claim waits for another transaction's claim of the
     * same event (PostgreSQL makes the second insert wait for the first) proceeds as soon as that one commits, and
     * inserts after all if the row is gone by then; its tombstone guard was read before the wait. An event deleted
     * the moment it completed would so be claimed, and run, again (found by EventLifeInterleavingTest). Deleting
     * only events unchanged for the whole retention closes that window for anything but a claim that waited longer.
     * Parameters: source, cut-off, cut-off, limit.
     */
    public static final String EXPIRED = """
            SELECT event_id, body_digest, received_at, status FROM received_event
            WHERE source = ? AND status IN (""" + EventStatus.EXPIRABLE_IN_SQL + """
            ) AND received_at < ? AND updated_at < ?
            ORDER BY received_at
            LIMIT ?""";
    /**
     * One expired event, deleted only if it is still finished well and unchanged since the cut-off (a replay may
     * have queued it again since). Parameters: source, event id, cut-off.
     */
    public static final String DELETE_EXPIRED = """
            DELETE FROM received_event WHERE source = ? AND event_id = ? AND updated_at < ?
              AND status IN (""" + EventStatus.EXPIRABLE_IN_SQL + ")";
    /** Never overwrites a completed event: a concurrent delivery may have processed it meanwhile. */
    public static final String UPDATE_FAILURE = """
            UPDATE received_event SET status = ?, attempts = ?, last_error = ?, updated_at = ?
            WHERE source = ? AND event_id = ? AND status IN (""" + EventStatus.OPEN_IN_SQL + ")";

    private ReceivedEventStatements() {
    }
}
