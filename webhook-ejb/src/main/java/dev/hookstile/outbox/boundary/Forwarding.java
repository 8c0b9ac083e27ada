package dev.hookstile.outbox.boundary;

import java.time.Instant;
import java.util.List;

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
    /** Every status, in the order of a forwarding's life. */
    public static final List<String> STATUSES = List.of(PENDING, DELIVERED, DEAD, FILTERED);

    /**
     * Whether an operator's replay sends a forwarding of this status again: a finished one that was sent or gave up
     * (the rule of the replay's statement, {@code OutboxStatements.REPLAY}); a filtered one would stay unsent.
     */
    public static boolean replayable(String status) {
        return DELIVERED.equals(status) || DEAD.equals(status);
    }
}
