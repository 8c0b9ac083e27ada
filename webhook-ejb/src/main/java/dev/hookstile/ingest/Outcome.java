package dev.hookstile.ingest;

import java.util.Locale;

/**
 * What ingest answered a delivery, or one event of it: one word for the sender's answer ({@code "status"}), the ack
 * histogram's {@code outcome} label, the overview's counts and the receive span's {@code hookstile.outcome}.
 */
public enum Outcome {
    /** Queued durably now: {@code 202}. */
    ACCEPTED,
    /** Known already (queued before, or recorded): {@code 200}, not queued again. */
    DUPLICATE,
    /** Refused: a {@code 4xx} problem. */
    REJECTED,
    /** Not taken, nothing accepted, the sender retries: a {@code 503} problem. */
    UNAVAILABLE;

    private final String label = name().toLowerCase(Locale.ROOT);

    /** The word in the answer's JSON, the metric's label and the span's attribute. */
    public String label() {
        return label;
    }
}
