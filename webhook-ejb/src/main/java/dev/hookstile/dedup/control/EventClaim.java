package dev.hookstile.dedup.control;

import dev.hookstile.api.WebhookEvent;
import dev.hookstile.dedup.entity.EventAttempt;
import dev.hookstile.dedup.entity.EventStatus;
import dev.hookstile.dedup.entity.ReceivedEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The dedup claim and the event's recorded state. Everything runs in the caller's JTA transaction: the claim row,
 * the handlers' work and the attempt's history commit together or not at all, and a rolled-back attempt leaves no
 * claim behind, so the next attempt can claim again.
 */
@ApplicationScoped
public class EventClaim {

    @PersistenceContext(unitName = "hookstile")
    EntityManager em;

    /**
     * Claims an event never recorded before, with the status it will have if the transaction commits.
     * {@code false} when the row exists: another delivery owns it (committed, or still in flight; PostgreSQL then
     * waits for that transaction before answering).
     */
    public boolean claimNew(WebhookEvent event, String headersJson, EventStatus status, Instant now) {
        return em.createNamedQuery(ReceivedEvent.CLAIM)
                .setParameter(1, event.source())
                .setParameter(2, event.eventId())
                .setParameter(3, event.provider())
                .setParameter(4, event.type())
                .setParameter(5, status.column())
                .setParameter(6, event.attempt())
                .setParameter(7, Timestamp.from(event.receivedAt()))
                .setParameter(8, Timestamp.from(now))
                .setParameter(9, headersJson)
                .setParameter(10, event.payload())
                .executeUpdate() == 1;
    }

    /**
     * What is recorded of an event's attempts.
     *
     * @param attempts   attempts so far
     * @param replayBase attempts it had used when it was last replayed (0 if never): its allowance counts from there
     * @param status     its status column
     */
    public record State(int attempts, int replayBase, String status) {

        /** Whether a delivery may still record a failure over it: it is not finished. */
        public boolean open() {
            return "retrying".equals(status) || "received".equals(status);
        }
    }

    /**
     * Claims an event recorded as {@code retrying} or queued again by a replay, counting {@code tries} more
     * attempts. Its state after the claim, or empty when the event is not claimable (finished, dead, or owned by a
     * concurrent delivery).
     */
    public Optional<State> reclaim(WebhookEvent event, EventStatus status, int tries, Instant now) {
        int updated = em.createNamedQuery(ReceivedEvent.RECLAIM)
                .setParameter(1, status.column())
                .setParameter(2, tries)
                .setParameter(3, Timestamp.from(now))
                .setParameter(4, event.source())
                .setParameter(5, event.eventId())
                .executeUpdate();
        if (updated == 0) {
            return Optional.empty();
        }
        Object[] row = (Object[]) em.createNamedQuery(ReceivedEvent.ATTEMPTS)
                .setParameter(1, event.source())
                .setParameter(2, event.eventId())
                .getSingleResult();
        return Optional.of(new State(((Number) row[0]).intValue(), ((Number) row[1]).intValue(), status.column()));
    }

    /** The event's state, its row locked until the transaction ends; empty if it is not recorded. */
    public Optional<State> lock(String source, String eventId) {
        List<?> rows = em.createNamedQuery(ReceivedEvent.LOCK_STATE)
                .setParameter(1, source)
                .setParameter(2, eventId)
                .getResultList();
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        Object[] row = (Object[]) rows.get(0);
        return Optional.of(new State(((Number) row[0]).intValue(), ((Number) row[1]).intValue(), (String) row[2]));
    }

    /** Records a failure of an event never recorded before; {@code false} if a concurrent delivery recorded it. */
    public boolean insertFailure(WebhookEvent event, String headersJson, EventStatus status, int attempts,
                                 String error, Instant now) {
        return em.createNamedQuery(ReceivedEvent.RECORD_FAILURE)
                .setParameter(1, event.source())
                .setParameter(2, event.eventId())
                .setParameter(3, event.provider())
                .setParameter(4, event.type())
                .setParameter(5, status.column())
                .setParameter(6, attempts)
                .setParameter(7, Timestamp.from(event.receivedAt()))
                .setParameter(8, Timestamp.from(now))
                .setParameter(9, error)
                .setParameter(10, headersJson)
                .setParameter(11, event.payload())
                .executeUpdate() == 1;
    }

    /**
     * Records a failure of an event recorded as {@code retrying} or {@code received}; {@code false} when it is
     * finished meanwhile (a completed event is never turned back into a failed one).
     */
    public boolean updateFailure(WebhookEvent event, EventStatus status, int attempts, String error, Instant now) {
        return em.createNamedQuery(ReceivedEvent.UPDATE_FAILURE)
                .setParameter(1, status.column())
                .setParameter(2, attempts)
                .setParameter(3, error)
                .setParameter(4, Timestamp.from(now))
                .setParameter(5, event.source())
                .setParameter(6, event.eventId())
                .executeUpdate() == 1;
    }

    /** Adds a line to the event's history. */
    public void recordAttempt(WebhookEvent event, int attempt, String outcome, String failure, String error,
                              Instant at) {
        em.createNamedQuery(EventAttempt.RECORD)
                .setParameter(1, event.source())
                .setParameter(2, event.eventId())
                .setParameter(3, attempt)
                .setParameter(4, outcome)
                .setParameter(5, failure)
                .setParameter(6, error)
                .setParameter(7, Timestamp.from(at))
                .executeUpdate();
    }
}
