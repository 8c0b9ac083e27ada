package dev.hookstile.outbox.control;

/**
 * The statements on {@code outbox}: plain SQL through JDBC on the transaction's connection, like the claim. Kept to
 * SQL that PostgreSQL and H2 (MODE=PostgreSQL) both accept.
 */
public final class OutboxStatements {

    public static final String PENDING = "pending";
    public static final String DELIVERED = "delivered";
    public static final String DEAD = "dead";
    public static final String FILTERED = "filtered";

    /** Scheduled in the processing transaction; a second try or a replay of the event schedules nothing more. */
    public static final String SCHEDULE = """
            INSERT INTO outbox (source, event_id, destination, status, attempts, next_attempt_at, created_at,
                                trace_parent)
            VALUES (?, ?, ?, 'pending', 0, ?, ?, ?)
            ON CONFLICT DO NOTHING""";
    /**
     * Not forwarded: the destination takes the event's type but its filter not the body. Written once, in the
     * processing transaction, in its final status with the reason: never due, never replayed.
     */
    public static final String FILTER = """
            INSERT INTO outbox (source, event_id, destination, status, attempts, next_attempt_at, created_at,
                                last_error)
            VALUES (?, ?, ?, '""" + FILTERED + """
            ', 0, ?, ?, ?)
            ON CONFLICT DO NOTHING""";
    /** A handler's n-th effect of an event, with its own body; a replay's run of the handler adds nothing twice. */
    public static final String SCHEDULE_EFFECT = """
            INSERT INTO outbox (source, event_id, destination, status, attempts, next_attempt_at, created_at, effect,
                                content_type, body, trace_parent)
            VALUES (?, ?, ?, 'pending', 0, ?, ?, ?, ?, ?, ?)
            ON CONFLICT DO NOTHING""";
    /**
     * The source of the rows that notify the operator's endpoint ({@code HOOKSTILE_NOTIFY_URL}): not a name a source
     * can have ({@code [a-z0-9][a-z0-9-]*}). Such a row's event id is the notification's id, its body the
     * notification; no event stands behind it.
     */
    public static final String NOTIFICATIONS = "_notify";
    /** A notification: unique, like any row, per id and URL, so that whoever schedules it again adds nothing. */
    public static final String SCHEDULE_NOTIFICATION = """
            INSERT INTO outbox (source, event_id, destination, status, attempts, next_attempt_at, created_at, effect,
                                content_type, body)
            VALUES ('""" + NOTIFICATIONS + """
            ', ?, ?, 'pending', 0, ?, ?, 0, 'application/json', ?)
            ON CONFLICT DO NOTHING""";
    /**
     * Due entries with what a delivery needs; on the embedded database, which serves one instance only. A forwarding
     * or effect whose event is gone is not due (as before notifications, which have no event, joined the outbox); a
     * notification only for an instance that sends to its URL (the second parameter, {@code NULL} for none): one
     * without notifications, or with another endpoint, would take it and leave it alone for a whole lease.
     */
    public static final String DUE = """
            SELECT o.id, o.source, o.event_id, o.destination, o.attempts, e.type, COALESCE(o.body, e.payload,
                       (SELECT b.body FROM event_body b WHERE b.digest = e.body_digest)),
                   o.effect, o.content_type, o.trace_parent
            FROM outbox o LEFT JOIN received_event e ON e.source = o.source AND e.event_id = o.event_id
            WHERE o.status = 'pending' AND o.next_attempt_at <= ?
              AND (e.source IS NOT NULL OR (o.source = '""" + NOTIFICATIONS + """
            ' AND o.destination = ?))
            ORDER BY o.next_attempt_at
            LIMIT ?""";
    /**
     * The same on PostgreSQL, locked: entries another instance holds are skipped, so instances never send the same
     * entry at the same moment.
     */
    public static final String DUE_LOCKED = DUE + " FOR UPDATE OF o SKIP LOCKED";
    /**
     * On PostgreSQL, before {@link #DUE_LOCKED}, in the same transaction: the outbox grows and empties faster than
     * its statistics follow, and on an estimate of a dozen due rows the planner fetched every due row through a
     * bitmap scan and sorted them (70 ms a turn with 15,000 pending, measured in the bench), where walking the
     * {@code (status, next_attempt_at)} index in order stops after the first 50 (1.6 ms).
     */
    public static final String WALK_THE_INDEX = "SET LOCAL enable_bitmapscan = off";
    /** Taken for a while: another instance leaves it alone until the lease ends (a crash mid-send lets it go). */
    public static final String LEASE = "UPDATE outbox SET next_attempt_at = ? WHERE id = ?";
    /** A destination's bucket, full, the first time a relay paces it (V21). */
    public static final String PACE_CREATE = """
            INSERT INTO destination_pace (source, destination, tokens, refilled_at) VALUES (?, ?, ?, ?)
            ON CONFLICT DO NOTHING""";
    /** The bucket, locked: instances take their tokens one after the other. */
    public static final String PACE_LOCK = """
            SELECT tokens, refilled_at, booked_until FROM destination_pace WHERE source = ? AND destination = ?
            FOR UPDATE""";
    public static final String PACE_TAKE = """
            UPDATE destination_pace SET tokens = ?, refilled_at = ? WHERE source = ? AND destination = ?""";
    public static final String PACE_BOOK = """
            UPDATE destination_pace SET booked_until = ? WHERE source = ? AND destination = ?""";
    /** A due forwarding beyond the pace: due again when the bucket will have a token for it, no attempt counted. */
    public static final String DEFER = "UPDATE outbox SET next_attempt_at = ? WHERE id = ?";
    /** The paused destinations, every instance's (V20). */
    public static final String PAUSED = "SELECT source, destination, paused_at FROM destination_pause";
    public static final String PAUSE = """
            INSERT INTO destination_pause (source, destination, paused_at) VALUES (?, ?, ?)
            ON CONFLICT DO NOTHING""";
    public static final String RESUME = "DELETE FROM destination_pause WHERE source = ? AND destination = ?";
    /**
     * Sets a due forwarding of a paused destination aside: not sent, its attempts untouched, out of the relay's walk
     * of the due index until {@link #RELEASE}.
     */
    public static final String HOLD = "UPDATE outbox SET held = TRUE, next_attempt_at = ? WHERE id = ?";
    /**
     * Every held forwarding whose destination is no longer paused, due at its creation, so the relay sends them in
     * that order: run each turn, by any instance, so a resume on one is followed everywhere, and a row one instance
     * set aside just as another resumed is released the turn after.
     */
    public static final String RELEASE = """
            UPDATE outbox SET held = FALSE, next_attempt_at = created_at
            WHERE held AND NOT EXISTS (SELECT 1 FROM destination_pause p
                                       WHERE p.source = outbox.source AND p.destination = outbox.destination)""";
    public static final String DELIVER = """
            UPDATE outbox SET status = 'delivered', attempts = attempts + 1, delivered_at = ?, last_error = NULL
            WHERE id = ?""";
    public static final String RETRY = """
            UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?, last_error = ? WHERE id = ?""";
    public static final String BURY = "UPDATE outbox SET status = 'dead', attempts = attempts + 1, last_error = ? WHERE id = ?";

    /** Deliveries for operators, with their event's type (gone once retention deleted the event). */
    /**
     * A source's forwardings to one destination in one status ({@code %s}), at most {@code %d}: written in, not
     * bound, so that PostgreSQL's generic plan of the prepared statement knows the status and takes the index (with
     * them bound it read the whole outbox on some calls: 40 ms against 1 ms at 200,000 rows).
     */
    public static final String COUNT = """
            SELECT COUNT(*) FROM (SELECT 1 FROM outbox WHERE status = '%s' AND source = ? AND destination = ?
                                  AND effect = 0 LIMIT %d) bounded""";
    public static final String LIST = """
            SELECT o.id, o.source, o.event_id, e.type, o.destination, o.status, o.attempts, o.created_at,
                   o.next_attempt_at, o.delivered_at, o.last_error, o.effect
            FROM outbox o LEFT JOIN received_event e ON e.source = o.source AND e.event_id = o.event_id""";
    /** An operator's replay of a finished delivery: due now, its attempts counted afresh. */
    public static final String REPLAY = """
            UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = ?, delivered_at = NULL,
                              last_error = NULL
            WHERE id = ? AND status IN ('delivered', 'dead')""";

    private OutboxStatements() {
    }
}
