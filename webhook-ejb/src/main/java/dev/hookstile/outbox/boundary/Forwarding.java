package dev.hookstile.outbox.boundary;

import java.time.Instant;

/**
 * One outbound delivery of a processed event to a destination, as operators see it.
 *
 * @param status        {@code pending}, {@code delivered}, {@code dead} or {@code filtered}
 * @param nextAttemptAt when a pending delivery is sent next (while one instance sends it: the end of its lease)
 * @param type          the event's type, {@code null} once retention has deleted the event
 * @param effect        0 for the source's forwarding of the event, n for a handler's n-th effect
 */
public record Forwarding(long id, String source, String eventId, String type, String destination, String status,
                       int attempts, Instant createdAt, Instant nextAttemptAt, Instant deliveredAt,
                       String lastError, int effect) {

    /** Waiting to be sent, or to be sent again. */
    public static final String PENDING = "pending";
    /** Sent and answered 2xx. */
    public static final String DELIVERED = "delivered";
    /** Failed permanently or too often: kept, sent again only by a replay. */
    public static final String DEAD = "dead";
    /** Never sent: the destination's filter does not match the event's body ({@code lastError} says so). */
    public static final String FILTERED = "filtered";
}
