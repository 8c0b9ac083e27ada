package dev.hookstile.operator.boundary;

import dev.hookstile.api.Text;
import dev.hookstile.events.boundary.ContentSearch;
import dev.hookstile.events.boundary.EventQuery;
import dev.hookstile.events.entity.EventStatus;
import dev.hookstile.source.JsonMatch;
import dev.hookstile.search.boundary.SearchKeys;
import dev.hookstile.web.boundary.Problems;
import jakarta.ws.rs.core.Response;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;

/**
 * Checks of what operators send, so a malformed value is a 400 with a reason and never reaches the database (where
 * a NUL character or a year 300000 would fail the query as a 500).
 */
final class QueryParameters {

    static final int MAX_SOURCE = 63;
    static final int MAX_TEXT = Text.MAX_STORED;
    private static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");
    private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59Z");

    private QueryParameters() {
    }

    /** The trimmed value, {@code null} when absent or blank. */
    static String text(String name, String value, int maxLength) {
        if (value == null) {
            return null;
        }
        // Before trimming: trim() would silently drop a NUL or any other control character at either end.
        if (!Text.withoutControls(value)) {
            throw new IllegalArgumentException(name + " contains a control character");
        }
        String trimmed = value.trim();
        if (trimmed.isEmpty()) {
            return null;
        }
        if (trimmed.length() > maxLength) {
            throw new IllegalArgumentException(name + " is longer than " + maxLength + " characters");
        }
        return trimmed;
    }

    static EventStatus status(String value) {
        String text = text("status", value, MAX_TEXT);
        if (text == null) {
            return null;
        }
        try {
            return EventStatus.of(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("status must be one of received, completed, ignored, retrying, dead");
        }
    }

    static Instant instant(String name, String value) {
        String text = text(name, value, 64);
        if (text == null) {
            return null;
        }
        Instant instant;
        try {
            instant = Instant.parse(text.toUpperCase(Locale.ROOT));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(name + " must be an ISO-8601 instant, e.g. 2026-11-23T08:00:00Z");
        }
        if (instant.isBefore(EARLIEST) || instant.isAfter(LATEST)) {
            throw new IllegalArgumentException(name + " must lie in the years 1 to 9999");
        }
        return instant;
    }

    static int limit(String value, int defaultLimit, int maxLimit) {
        if (value == null || value.isBlank()) {
            return defaultLimit;
        }
        try {
            int limit = Integer.parseInt(value.trim());
            if (limit >= 1 && limit <= maxLimit) {
                return limit;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new IllegalArgumentException("limit must be a whole number from 1 to " + maxLimit);
    }

    /** The event id as sent, not trimmed (an id may hold spaces at either end); {@code null} when absent or empty. */
    static String eventId(String eventId) {
        if (eventId == null || eventId.isEmpty()) {
            return null;
        }
        if (!Text.withoutControls(eventId) || eventId.length() > MAX_TEXT) {
            throw new IllegalArgumentException("eventId must be 1 to " + MAX_TEXT + " printable characters");
        }
        return eventId;
    }

    /** A row id (a delivery's, a refused delivery's), or {@code null} for anything that cannot be one. */
    static Long id(String value) {
        if (value == null || value.isEmpty() || value.length() > 19 || !value.chars().allMatch(Character::isDigit)) {
            return null;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The {@code after} cursor of a keyset page: a row id this API returned, or {@code null}. */
    static Long cursor(String after) {
        if (after == null || after.isBlank()) {
            return null;
        }
        Long id = id(after.trim());
        if (id == null) {
            throw new IllegalArgumentException("'after' is not a cursor this API returned");
        }
        return id;
    }

    /** The answer to a query whose parameters are not valid: a 400 saying which and why. */
    static Response invalid(IllegalArgumentException reason, String path) {
        return Problems.of(400, "invalid-query", "Invalid query", reason.getMessage(), path).build();
    }

    /**
     * The {@code next} cursor of a keyset page: the id of its last row when the page is full (there may be more),
     * {@code null} when it is not (there are none).
     */
    static <T> String next(List<T> page, int limit, ToLongFunction<T> id) {
        return page.size() == limit ? Long.toString(id.applyAsLong(page.get(page.size() - 1))) : null;
    }

    /** A pointer and a value, each at most 255 characters, and the colon between them. */
    static final int MAX_KEY = 511;

    /**
     * {@code <key>:<value>}, a search key and its whole value: the key a configured pointer
     * ({@code /data/object/customer}) or its last segment ({@code customer}); the first {@code ':'} ends it (no key
     * holds one). {@code null} when absent.
     *
     * @throws IllegalArgumentException when malformed, or when no source has the key (naming those there are)
     */
    static EventQuery.Key key(SearchKeys keys, String text) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        int colon = text.indexOf(':');
        if (colon <= 0 || text.length() > MAX_KEY || !Text.withoutControls(text)) {
            throw new IllegalArgumentException("key must be a search key and a value, e.g. customer:cus_9 or"
                    + " /data/object/customer:cus_9, at most " + MAX_KEY + " printable characters");
        }
        return new EventQuery.Key(keys.pointersNamed(text.substring(0, colon)),
                SearchKeys.searchable(text.substring(colon + 1)));
    }

    /**
     * {@code <name>:<value>}: a retained header with this value exactly, its name in any case; {@code null} when
     * absent.
     */
    static ContentSearch.Header header(String text) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        int colon = text.indexOf(':');
        if (colon <= 0 || text.length() > MAX_KEY || !Text.withoutControls(text)) {
            throw new IllegalArgumentException("header must be a header's name and value, e.g. x-github-event:push, at"
                    + " most " + MAX_KEY + " printable characters");
        }
        return new ContentSearch.Header(text.substring(0, colon).trim(), text.substring(colon + 1).trim());
    }

    /** A JSON object the body must contain; {@code null} when absent or blank. */
    static JsonMatch match(String text) {
        return text == null || text.isBlank() ? null : JsonMatch.parse(text);
    }
}
