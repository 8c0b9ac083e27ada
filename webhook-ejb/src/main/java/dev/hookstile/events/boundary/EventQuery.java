package dev.hookstile.events.boundary;

import dev.hookstile.events.entity.EventStatus;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Base64;
import java.util.Set;

/**
 * A filter over recorded events, newest first, with a keyset cursor: {@code after} is the opaque position of the
 * last event of the previous page, so paging stays correct and cheap while events keep arriving.
 *
 * @param type      a prefix of the type ({@code invoice.} selects {@code invoice.paid}), or the type itself when
 *                  {@code typeExact}
 * @param limit     at most this many events, 1 to 500
 * @param typeExact {@code type} is the whole type, not a prefix
 * @param error     the last error, exactly (a dead group's)
 * @param eventId   the event id, exactly: read by primary key, with or without a source
 * @param key       the events with this value at one of these search keys: read by the keys' index
 */
public record EventQuery(String source, EventStatus status, String type, Instant since, Instant until,
                         Position after, int limit, boolean typeExact, String error, String eventId, Key key) {

    public static final int MAX_LIMIT = 500;

    public EventQuery {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIMIT);
        }
    }

    public EventQuery(String source, EventStatus status, String type, Instant since, Instant until, Position after,
                      int limit) {
        this(source, status, type, since, until, after, limit, false, null, null, null);
    }

    public EventQuery after(Position position) {
        return new EventQuery(source, status, type, since, until, position, limit, typeExact, error, eventId, key);
    }

    /**
     * A search key's value: the events whose value at one of these pointers (the key's, across sources) is this one.
     *
     * @param value as stored: cut and cleaned as the keys are ({@code SearchKeys.searchable})
     */
    public record Key(Set<String> pointers, String value) {

        public Key {
            pointers = Set.copyOf(pointers);
            if (pointers.isEmpty()) {
                throw new IllegalArgumentException("a key names at least one pointer");
            }
        }
    }

    /** The type as a {@code LIKE} pattern matching it as a prefix: its own {@code %}, {@code _} and {@code \} escaped. */
    public static String prefixPattern(String type) {
        return type.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%";
    }

    /** Where a page ended, in the list's order. */
    public record Position(OffsetDateTime receivedAt, String source, String eventId) {

        public static Position of(EventSummary event) {
            return new Position(event.receivedAt(), event.source(), event.eventId());
        }

        public String encode() {
            String text = receivedAt + "\n" + source + "\n" + eventId;
            return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
        }

        /** @throws IllegalArgumentException when the cursor was not made by {@link #encode()} */
        public static Position decode(String cursor) {
            try {
                String[] parts = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8)
                        .split("\n", 3);
                if (parts.length != 3) {
                    throw new IllegalArgumentException("not a cursor");
                }
                return new Position(OffsetDateTime.parse(parts[0]), parts[1], parts[2]);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("'after' is not a cursor this API returned", e);
            }
        }
    }
}
