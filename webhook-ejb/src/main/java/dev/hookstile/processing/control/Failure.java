package dev.hookstile.processing.control;

import java.time.Instant;
import java.util.Locale;

/**
 * A failed attempt, classified.
 *
 * @param kind           whether trying again can help
 * @param summary        what went wrong, for the event's history: exception type and message, bounded
 * @param at             when the attempt failed
 * @param durationMillis how long the failed try took, from its start to {@code at}; {@code null} when no try ran
 *                       (a failure around the try, the broker giving up)
 */
public record Failure(Kind kind, String summary, Instant at, Integer durationMillis) {

    static final int MAX_SUMMARY = 1000;

    /** A failure of no try of ours. */
    public Failure(Kind kind, String summary, Instant at) {
        this(kind, summary, at, null);
    }

    /** This failure of a try that started at {@code start}: its duration from the two instants already read. */
    Failure ofTryStartedAt(Instant start) {
        return new Failure(kind, summary, at, millisBetween(start, at));
    }

    /**
     * Whole milliseconds from {@code start} to {@code end}, for the history. On the wall clock, which the try has
     * read anyway for its times (a monotonic clock would be a further read per try on the hot path): a clock stepped
     * back in between gives 0 rather than a negative duration, and a try longer than {@code int} millis (24 days)
     * is capped.
     */
    static int millisBetween(Instant start, Instant end) {
        long seconds = end.getEpochSecond() - start.getEpochSecond();
        if (seconds < 0) {
            return 0;
        }
        if (seconds > Integer.MAX_VALUE / 1000 + 1) {
            return Integer.MAX_VALUE;
        }
        // From the nanoseconds: each instant's own milliseconds would count 0.2 ms across a millisecond's end as 1.
        long millis = (seconds * 1_000_000_000L + end.getNano() - start.getNano()) / 1_000_000;
        return (int) Math.max(0, Math.min(Integer.MAX_VALUE, millis));
    }

    public enum Kind {
        /** Trying again later may succeed: retried in process, then redelivered with back-off. */
        TRANSIENT,
        /** Trying again cannot succeed: the event is dead at once, kept and replayable. */
        PERMANENT;

        public String column() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public boolean permanent() {
        return kind == Kind.PERMANENT;
    }

    static String summarise(Throwable failure) {
        var text = new StringBuilder();
        for (Throwable t = failure; t != null && text.length() < MAX_SUMMARY; t = t.getCause()) {
            if (!text.isEmpty()) {
                text.append(" <- ");
            }
            text.append(t.getClass().getName());
            if (t.getMessage() != null) {
                text.append(": ").append(t.getMessage());
            }
        }
        return bounded(text.toString());
    }

    /** One line of at most {@value #MAX_SUMMARY} characters, without control characters. */
    static String bounded(String text) {
        String oneLine = text.replaceAll("\\p{Cntrl}+", " ");
        return oneLine.length() > MAX_SUMMARY ? oneLine.substring(0, MAX_SUMMARY - 3) + "..." : oneLine;
    }
}
