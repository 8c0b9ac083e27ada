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
import java.util.OptionalInt;

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
     * Claims an event recorded as {@code retrying} or queued again by a replay, counting {@code tries} more
     * attempts. The attempt number it reached, or empty when the event is not claimable (finished, dead, or owned
     * by a concurrent delivery).
     */
    public OptionalInt reclaim(WebhookEvent event, EventStatus status, int tries, Instant now) {
        int updated = em.createNamedQuery(ReceivedEvent.RECLAIM)
                .setParameter(1, status.column())
                .setParameter(2, tries)
                .setParameter(3, Timestamp.from(now))
                .setParameter(4, event.source())
                .setParameter(5, event.eventId())
                .executeUpdate();
        return updated == 1 ? OptionalInt.of(attempts(event.source(), event.eventId()).orElseThrow()) : OptionalInt.empty();
    }

    /** The attempts recorded for the event, empty if it is not recorded. */
    public OptionalInt attempts(String source, String eventId) {
        List<?> rows = em.createNamedQuery(ReceivedEvent.ATTEMPTS)
                .setParameter(1, source)
                .setParameter(2, eventId)
                .getResultList();
        return rows.isEmpty() ? OptionalInt.empty() : OptionalInt.of(((Number) rows.get(0)).intValue());
    }

    /**
     * Records a failed attempt's outcome ({@code retrying} or {@code dead}) with the total attempts so far.
     * {@code false} when the event was finished meanwhile by another delivery: then nothing is written, so a
     * completed event is never turned back into a failed one.
     */
    public boolean recordFailure(WebhookEvent event, String headersJson, EventStatus status, int attempts,
                                 String error, Instant now) {
        Timestamp at = Timestamp.from(now);
        int inserted = em.createNamedQuery(ReceivedEvent.RECORD_FAILURE)
                .setParameter(1, event.source())
                .setParameter(2, event.eventId())
                .setParameter(3, event.provider())
                .setParameter(4, event.type())
                .setParameter(5, status.column())
                .setParameter(6, attempts)
                .setParameter(7, Timestamp.from(event.receivedAt()))
                .setParameter(8, at)
                .setParameter(9, error)
                .setParameter(10, headersJson)
                .setParameter(11, event.payload())
                .executeUpdate();
        return inserted == 1 || em.createNamedQuery(ReceivedEvent.UPDATE_FAILURE)
                .setParameter(1, status.column())
                .setParameter(2, attempts)
                .setParameter(3, error)
                .setParameter(4, at)
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
