package dev.hookstile.processing.control;

import dev.hookstile.api.WebhookEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;

/**
 * The last processed event of each order key, kept in the try's transaction: an event acknowledged before it is
 * {@linkplain WebhookEvent#olderThanLastProcessed() older}. The order itself comes from the ordered queues (one
 * session each, one message group each); the row lock here only makes two tries of one key, should they ever meet
 * (an operator's replay racing the queue), wait for each other.
 */
@ApplicationScoped
class KeyOrder {

    // A key's first event inserts its row; a concurrent first try of the same key (a replay meeting the queue)
    // waits on that insert and then finds the row, instead of failing on the primary key.
    static final String FIRST = "INSERT INTO event_order (source, order_key, last_received_at, last_event_id, updated_at)"
            + " VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT DO NOTHING";
    static final String LAST = "SELECT last_received_at FROM event_order WHERE source = ?1 AND order_key = ?2 FOR UPDATE";
    static final String NEWER = "UPDATE event_order SET last_received_at = ?3, last_event_id = ?4, updated_at = ?5"
            + " WHERE source = ?1 AND order_key = ?2";

    @Inject
    EntityManager em;

    /** @return the event, told whether it is older than the last processed of its key; records it if not */
    WebhookEvent processing(WebhookEvent event, Instant now) {
        if (event.orderKey() == null) {
            return event;
        }
        if (write(FIRST, event, now) == 1) {
            return event;
        }
        @SuppressWarnings("unchecked")
        List<Object> last = em.createNativeQuery(LAST)
                .setParameter(1, event.source())
                .setParameter(2, event.orderKey())
                .getResultList();
        boolean older = !last.isEmpty() && event.receivedAt().isBefore(instant(last.get(0)));
        if (!older) {
            write(NEWER, event, now);
        }
        return event.withOlderThanLastProcessed(older);
    }

    private int write(String statement, WebhookEvent event, Instant now) {
        return em.createNativeQuery(statement)
                .setParameter(1, event.source())
                .setParameter(2, event.orderKey())
                .setParameter(3, Timestamp.from(event.receivedAt()))
                .setParameter(4, event.eventId())
                .setParameter(5, Timestamp.from(now))
                .executeUpdate();
    }

    private static Instant instant(Object value) {
        if (value instanceof Timestamp timestamp) {
            return timestamp.toInstant();
        }
        if (value instanceof java.time.OffsetDateTime offset) {
            return offset.toInstant();
        }
        throw new IllegalStateException("unexpected timestamp " + value.getClass());
    }
}
