package dev.hookstile.notify.control;

import jakarta.json.Json;
import jakarta.json.JsonObjectBuilder;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * What a notification says, as the bytes sent: a JSON object with {@code id}, {@code type}, {@code source},
 * {@code destination} (breakers, pauses), {@code failure}, {@code count}, {@code first}, {@code last}, {@code sample}
 * (deaths) and {@code link}; in the {@code slack} format the same with a {@code text} a chat shows (Slack's incoming
 * webhooks, and the many chats that read their format, ignore the other fields).
 *
 * <p>What a sender may have written (an error sample) is data: a JSON string value, and in the Slack text escaped as
 * Slack asks ({@code &}, {@code <}, {@code >}), so that it can neither mention anyone nor make a link.
 */
public final class NoticeBody {

    /** {@code HOOKSTILE_NOTIFY_FORMAT}. */
    public enum Format { JSON, SLACK }

    private NoticeBody() {
    }

    /**
     * @param link the console's view of it ({@link Notice#view}), absolute or relative to the server
     * @param linkAbsolute whether the link may be offered in a chat: a relative one cannot be followed from there
     */
    public static byte[] of(Notice notice, Format format, String link, boolean linkAbsolute) {
        JsonObjectBuilder body = Json.createObjectBuilder()
                .add("id", notice.id())
                .add("type", notice.type().label())
                .add("source", notice.source());
        if (notice.type() == Notice.Type.BREAKER_OPENED || notice.type() == Notice.Type.BREAKER_CLOSED
                || notice.type() == Notice.Type.DESTINATION_PAUSED) {
            body.add("destination", notice.source());
        }
        if (notice.failure() == null) {
            body.addNull("failure");
        } else {
            body.add("failure", notice.failure());
        }
        body.add("count", notice.count())
                .add("first", time(notice.first()))
                .add("last", time(notice.last()));
        if (notice.sample() != null) {
            body.add("sample", notice.sample());
        }
        body.add("link", link);
        if (format == Format.SLACK) {
            body.add("text", slackText(notice, linkAbsolute ? link : null));
            // Slack would fetch the console's page to preview it: an internal address, behind a sign-in.
            body.add("unfurl_links", false);
        }
        return body.build().toString().getBytes(StandardCharsets.UTF_8);
    }

    /** One line of text, every value in it escaped for Slack. */
    static String slackText(Notice notice, String link) {
        String source = "*" + escape(notice.source()) + "*";
        String first = escape(toTheSecond(notice.first()));
        String last = escape(toTheSecond(notice.last()));
        long count = notice.count();
        String text = switch (notice.type()) {
            case EVENTS_DEAD -> (count == 1 ? "1 event" : count + " events") + " of source " + source + " died ("
                    + escape(String.valueOf(notice.failure())) + " failure) "
                    + (count == 1 ? "at " + first : "between " + first + " and " + last) + "."
                    + (notice.sample() == null ? "" : " Sample error: `" + escape(notice.sample().replace('`', '\''))
                    + "`");
            case BREAKER_OPENED -> "The destination of source " + source + " keeps failing: its circuit breaker "
                    + (count == 1 ? "opened at " + first : "opened " + count + " times between " + first + " and "
                    + last) + ". Forwarding to it waits and is retried.";
            case BREAKER_CLOSED -> "The destination of source " + source + " answers again: its circuit breaker "
                    + (count == 1 ? "closed at " + last : "closed " + count + " times, last at " + last) + ".";
            case PROCESSING_BEHIND -> "Processing of source " + source + " is behind: " + count + " event"
                    + (count == 1 ? "" : "s") + " waiting, the oldest since " + first + ".";
            case PROCESSING_CAUGHT_UP -> "Processing of source " + source + " caught up at " + last
                    + " (behind since " + first + ").";
            case DESTINATION_PAUSED -> "The destination of source " + source + " has been paused since " + first
                    + ": " + count + " forwarding" + (count == 1 ? "" : "s") + " held. Resume it once its maintenance"
                    + " is over.";
        };
        String label = switch (notice.type()) {
            case EVENTS_DEAD -> "Dead events";
            case BREAKER_OPENED, BREAKER_CLOSED, DESTINATION_PAUSED -> "Forwardings";
            case PROCESSING_BEHIND, PROCESSING_CAUGHT_UP -> "Overview";
        };
        return "Hookstile: " + text + (link == null ? "" : " <" + escape(link).replace("|", "%7C") + "|" + label
                + ">");
    }

    /** Slack's escaping of its control characters, the only three it asks for. */
    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    /** As JSON carries times everywhere in Hookstile: ISO 8601, UTC, milliseconds. */
    private static String time(Instant at) {
        return at.truncatedTo(ChronoUnit.MILLIS).toString();
    }

    /** For a person: to the second. */
    private static String toTheSecond(Instant at) {
        return at.truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
