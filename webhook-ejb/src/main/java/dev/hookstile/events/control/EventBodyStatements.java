package dev.hookstile.events.control;

/**
 * The statements on {@code event_body} that run through JDBC on the transaction's connection: a shared body stored
 * before the claims that refer to it, and deleted by the retention with the last of them.
 */
public final class EventBodyStatements {

    /** Stores a body unless stored already; the caller's events then refer to it by its digest. */
    public static final String STORE = """
            INSERT INTO event_body (digest, body, created_at) VALUES (?, ?, ?)
            ON CONFLICT DO NOTHING""";
    /**
     * A body no event uses any more. A claim referring to it at the same moment makes this wait and then fail on the
     * foreign key, never leave the claim pointing at nothing.
     */
    public static final String DELETE_UNUSED = """
            DELETE FROM event_body WHERE digest = ?
              AND NOT EXISTS (SELECT 1 FROM received_event WHERE body_digest = ?)""";

    private EventBodyStatements() {
    }
}
