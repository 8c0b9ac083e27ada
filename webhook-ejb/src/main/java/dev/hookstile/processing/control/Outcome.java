package dev.hookstile.processing.control;

/** How processing one delivery of an event ended, and so what becomes of its message. */
public enum Outcome {
    /** Handled and committed: consume the message. */
    COMPLETED,
    /** No handler applies; recorded: consume the message. */
    IGNORED,
    /**
     * The event belongs to another delivery, which owns or finished it: either this one's claim found it taken (a
     * duplicate), or its failure was not recorded because the event finished meanwhile. Consume the message; nothing
     * of this delivery is recorded.
     */
    OWNED_ELSEWHERE,
    /** Failed transiently with attempts left, recorded as retrying: roll back so the broker redelivers it later. */
    RETRY,
    /** Failed permanently or for the last time, recorded as dead: consume the message. */
    DEAD;

    /** Whether the message must go back to the broker for a later redelivery. */
    public boolean redeliver() {
        return this == RETRY;
    }
}
