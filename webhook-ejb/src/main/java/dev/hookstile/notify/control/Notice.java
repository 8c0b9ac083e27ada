package dev.hookstile.notify.control;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Objects;

/**
 * One notification: what happened ({@link Type}), to which source, how many events it covers and between which
 * times. Its {@link #id} follows from its kind and period alone, so every instance that computes it, and every rerun,
 * computes the same id, and the outbox's unique key keeps one.
 *
 * @param type    what happened
 * @param source  the source it happened to: for a breaker, the source whose destination it is
 * @param failure for deaths, the failure kind the history records ({@code transient}, {@code permanent}); else
 *                {@code null}. Never an error text: that is the sender's to choose, and grouping on it would let a
 *                sender make a notification per event
 * @param count   the events it covers: deaths; breaker changes; events waiting; forwardings a paused destination holds
 * @param first   the earliest time it covers (the first death or change; since when a source is behind)
 * @param last    the latest time it covers
 * @param period  what makes it one: the start of its window (deaths, breaker changes) or the moment of the change
 *                (processing behind, caught up; a destination's pause), whole seconds
 * @param sample  for deaths, one of their errors, bounded, as data; else {@code null}
 */
public record Notice(Type type, String source, String failure, long count, Instant first, Instant last,
                     Instant period, String sample) {

    /** Longest error sample kept: enough to recognise the failure, never a payload. */
    static final int MAX_SAMPLE = 200;

    public Notice {
        Objects.requireNonNull(type);
        Objects.requireNonNull(source);
        Objects.requireNonNull(first);
        Objects.requireNonNull(last);
        Objects.requireNonNull(period);
        sample = bounded(sample);
    }

    /** What a notification is about, as its {@code type} field says it. */
    public enum Type {
        EVENTS_DEAD("events.dead"),
        BREAKER_OPENED("destination.breaker_opened"),
        BREAKER_CLOSED("destination.breaker_closed"),
        PROCESSING_BEHIND("processing.behind"),
        PROCESSING_CAUGHT_UP("processing.caught_up"),
        DESTINATION_PAUSED("destination.paused_long");

        private final String label;

        Type(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /**
     * {@code <type>:<source>[:<failure>]:<period in epoch seconds>}, e.g. {@code events.dead:gh:permanent:1764072000}:
     * made of a fixed label, a source name, a failure kind and a number, never of anything a sender chose.
     */
    public String id() {
        return type.label() + ":" + source + (failure == null ? "" : ":" + failure) + ":" + period.getEpochSecond();
    }

    /**
     * The console's view of what it covers, as a route of the console ({@code webhook-war/.../console/app.js}): the
     * dead events of the source, its forwardings, or its line of the overview (waiting and oldest waiting).
     */
    public String view() {
        String page = switch (type) {
            case EVENTS_DEAD -> "dead";
            case BREAKER_OPENED, BREAKER_CLOSED, DESTINATION_PAUSED -> "forwardings";
            case PROCESSING_BEHIND, PROCESSING_CAUGHT_UP -> "overview";
        };
        return page + "?source=" + URLEncoder.encode(source, StandardCharsets.UTF_8);
    }

    /** One line, printable, at most {@value #MAX_SAMPLE} characters. */
    static String bounded(String text) {
        if (text == null) {
            return null;
        }
        String line = text.replaceAll("[\\p{Cntrl}\\p{Zl}\\p{Zp}]+", " ").strip();
        return line.length() > MAX_SAMPLE ? line.substring(0, MAX_SAMPLE - 3) + "..." : line;
    }
}
