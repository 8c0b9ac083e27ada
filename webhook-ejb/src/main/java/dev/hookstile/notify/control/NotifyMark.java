package dev.hookstile.notify.control;

/**
 * The statements of the notifier: its marks in {@code notify_mark} and the deaths it reads from the attempts'
 * history. Plain SQL through JDBC, kept to what PostgreSQL and H2 (MODE=PostgreSQL) both accept.
 */
public final class NotifyMark {

    /** The mark of the deaths: the end of the last window announced. */
    public static final String DEATHS = "events.dead";
    /** The prefix of a source's mark: since when it is behind, {@code NULL} while it is not. */
    public static final String BEHIND = "processing.behind:";

    /** Without a conflict target: H2 rejects one, and with a single key PostgreSQL means the same. */
    public static final String CREATE = "INSERT INTO notify_mark (name, at) VALUES (?, ?) ON CONFLICT DO NOTHING";
    /** A mark, locked until the transaction ends: an instance moving it makes the others wait, then see it moved. */
    public static final String LOCK = "SELECT at FROM notify_mark WHERE name = ? FOR UPDATE";
    public static final String MOVE = "UPDATE notify_mark SET at = ? WHERE name = ?";
    /** Every source's behind mark, read once per turn without a lock. */
    public static final String BEHIND_MARKS = "SELECT name, at FROM notify_mark WHERE name LIKE '" + BEHIND + "%'";

    /**
     * The first death at or after a time, before another: the next window with deaths, found by one probe of the
     * index {@code event_attempt_deaths} (V13). The outcome is written in, not bound: PostgreSQL takes a partial
     * index only for a statement that names its condition.
     */
    public static final String NEXT_DEATH = """
            SELECT MIN(at) FROM event_attempt WHERE outcome = 'dead' AND at >= ? AND at < ?""";
    /**
     * The deaths of one window by source and failure kind (the history's column: transient, permanent), with their
     * first and last times and one of their errors. Every death writes exactly one line with the outcome
     * {@code dead}, whatever became of the event since (a replay), so a death is counted once.
     */
    public static final String DEATHS_OF_WINDOW = """
            SELECT source, failure, COUNT(*), MIN(at), MAX(at), MIN(error)
            FROM event_attempt WHERE outcome = 'dead' AND at >= ? AND at < ?
            GROUP BY source, failure
            ORDER BY source, failure""";

    private NotifyMark() {
    }
}
