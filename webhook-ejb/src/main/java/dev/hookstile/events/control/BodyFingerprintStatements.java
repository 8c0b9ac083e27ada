package dev.hookstile.events.control;

/**
 * The statements on {@code body_fingerprint}: which event owns a body's SHA-256 within a source. Plain SQL, run
 * through JDBC on the processing transaction's connection, like the claim; nothing reads the table through JPA.
 * Kept to SQL that PostgreSQL and H2 (MODE=PostgreSQL) both accept: H2 refuses a conflict target.
 */
public final class BodyFingerprintStatements {

    public static final String CLAIM = """
            INSERT INTO body_fingerprint (source, sha256, event_id, received_at) VALUES (?, ?, ?, ?)
            ON CONFLICT DO NOTHING""";
    /** The owner of a fingerprint, its row locked until the transaction ends. */
    public static final String OWNER = """
            SELECT event_id, received_at FROM body_fingerprint WHERE source = ? AND sha256 = ? FOR UPDATE""";
    /** A fingerprint whose owner's window has passed, handed to a new event. */
    public static final String TAKE_OVER = """
            UPDATE body_fingerprint SET event_id = ?, received_at = ? WHERE source = ? AND sha256 = ?""";

    /** Fingerprints whose window has passed for good: the retention deletes them with the events. */
    public static final String DELETE_OLDER = "DELETE FROM body_fingerprint WHERE source = ? AND received_at < ?";

    private BodyFingerprintStatements() {
    }
}
