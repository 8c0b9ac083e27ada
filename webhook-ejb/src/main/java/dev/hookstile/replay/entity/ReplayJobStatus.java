package dev.hookstile.replay.entity;

import java.util.Locale;

/** Where a bulk replay stands. Stored in lower case, as operators and SQL see it. */
public enum ReplayJobStatus {
    /** Selecting and queueing events, in the background. */
    RUNNING,
    /** Every selected event was looked at. */
    COMPLETED,
    /** Stopped by an error; {@code error} says which. Starting it again (a new request id) replays what is left. */
    FAILED,
    /** The instance stopped while it ran; marked at the next start. */
    INTERRUPTED,
    /** An operator stopped it; the events queued until then stay queued. */
    CANCELLED;

    /** The columns the job's own statements write; constants, so that annotations can use them. */
    static final String RUNNING_IN_SQL = "'running'";
    static final String INTERRUPTED_IN_SQL = "'interrupted'";
    static final String CANCELLED_IN_SQL = "'cancelled'";

    public String column() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ReplayJobStatus of(String column) {
        return valueOf(column.toUpperCase(Locale.ROOT));
    }
}
