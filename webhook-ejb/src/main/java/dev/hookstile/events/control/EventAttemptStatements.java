package dev.hookstile.events.control;

/**
 * The statements on {@code event_attempt} that run through JDBC on the transaction's connection: history lines
 * written with the try, deleted by the retention with their event, and the deaths the notifier announces. The operator
 * reads them through JPA.
 */
public final class EventAttemptStatements {

    /** A line of an event's history; plain SQL, run through JDBC on the processing transaction's connection. */
    public static final String RECORD = """
            INSERT INTO event_attempt (source, event_id, attempt, outcome, failure, error, at, duration_millis)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)""";
    /** An event's history, deleted with the event by the retention. */
    public static final String DELETE_OF_EVENT = "DELETE FROM event_attempt WHERE source = ? AND event_id = ?";

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

    private EventAttemptStatements() {
    }
}
