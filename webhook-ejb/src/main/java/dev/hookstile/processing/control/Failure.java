package dev.hookstile.processing.control;

import java.util.Locale;

/**
 * A failed attempt, classified.
 *
 * @param kind    whether trying again can help
 * @param summary what went wrong, for the event's history: exception type and message, bounded
 * @param at      when the attempt failed
 */
public record Failure(Kind kind, String summary, java.time.Instant at) {

    static final int MAX_SUMMARY = 1000;

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
