package dev.hookstile.notify.control;

/**
 * The statements on {@code notify_mark}, the notifier's marks: plain SQL through JDBC, kept to what PostgreSQL and
 * H2 (MODE=PostgreSQL) both accept. The deaths it announces it reads through {@code RecordedDeaths}.
 */
public final class NotifyMarkStatements {

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

    private NotifyMarkStatements() {
    }
}
