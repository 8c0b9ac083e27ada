package dev.hookstile.events.control;

/** The statements on {@code event_key} run through JDBC on the processing transaction's connection. */
public final class EventKeyStatements {

    /**
     * A search key of an event claimed in this transaction. A reclaimed event (a retry, a replay) may have it
     * already, written by the try that first committed it: nothing happens then.
     */
    public static final String RECORD = """
            INSERT INTO event_key (source, event_id, pointer, key_value, received_at)
            VALUES (?, ?, ?, ?, CAST(? AS TIMESTAMP WITH TIME ZONE))
            ON CONFLICT DO NOTHING""";

    private EventKeyStatements() {
    }
}
