package dev.hookstile.dedup.control;

import dev.hookstile.api.WebhookEvent;
import dev.hookstile.dedup.entity.ReceivedEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import java.sql.Timestamp;
import java.time.Instant;

/**
 * The dedup claim and its completion. Both run in the caller's JTA transaction: the claim row, the handlers' work and
 * the completion commit together or not at all, and a rolled-back attempt leaves no claim behind, so the
 * redelivery can claim again.
 */
@ApplicationScoped
public class EventClaim {

    @PersistenceContext(unitName = "hookstile")
    EntityManager em;

    /**
     * Records the event as received. {@code false} when the row exists already: another delivery of the same event
     * owns it (committed, or still in flight; PostgreSQL then waits for that transaction before answering).
     */
    public boolean claim(WebhookEvent event, String headersJson) {
        return em.createNamedQuery(ReceivedEvent.CLAIM)
                .setParameter(1, event.source())
                .setParameter(2, event.eventId())
                .setParameter(3, event.provider())
                .setParameter(4, event.type())
                .setParameter(5, event.attempt())
                .setParameter(6, Timestamp.from(event.receivedAt()))
                .setParameter(7, headersJson)
                .setParameter(8, event.payload())
                .executeUpdate() == 1;
    }

    public void complete(WebhookEvent event, Instant processedAt) {
        em.createNamedQuery(ReceivedEvent.COMPLETE)
                .setParameter(1, Timestamp.from(processedAt))
                .setParameter(2, event.source())
                .setParameter(3, event.eventId())
                .executeUpdate();
    }
}
