package dev.hookstile.outbox.boundary;

import dev.hookstile.outbox.control.OutboxStatements;

import java.time.Instant;
import java.util.Set;

/**
 * A filter over deliveries, newest first, with a keyset cursor: {@code afterId} is the id of the last delivery of
 * the previous page (ids only grow), so paging stays correct and cheap while deliveries keep being scheduled.
 *
 * @param eventId exactly this event's deliveries, only with {@code source}: the outbox's unique key
 *                {@code (source, event_id, destination, effect)} finds them by index
 * @param limit   at most this many deliveries, 1 to {@value #MAX_LIMIT}
 */
public record ForwardingQuery(String source, String eventId, String status, String type, Instant since, Instant until,
                            Long afterId, int limit) {

    public static final int MAX_LIMIT = 500;
    public static final Set<String> STATUSES = Set.of(OutboxStatements.PENDING, OutboxStatements.DELIVERED, OutboxStatements.DEAD);

    public ForwardingQuery {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIMIT);
        }
        if (eventId != null && source == null) {
            // Without the source no index leads with the event id: it would scan the outbox.
            throw new IllegalArgumentException("eventId needs source: an event is known by its source and id");
        }
        if (status != null && !STATUSES.contains(status)) {
            throw new IllegalArgumentException("status must be one of pending, delivered, dead");
        }
    }
}
