package dev.hookstile.it.support;

import dev.hookstile.api.HandlesWebhooks;
import dev.hookstile.api.TransientFailure;
import dev.hookstile.api.WebhookEvent;
import dev.hookstile.api.WebhookHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import java.sql.Timestamp;
import java.time.Instant;

/**
 * The handler of the ordered source {@code ord} (webhook-war/pom.xml: {@code _ORDER_KEY=/customer}): takes 40 ms, so
 * that events overlap wherever they are allowed to, and records when it started and ended, with what it was told, in
 * {@code it_order}, in the processing transaction. An event id containing {@code fail-once} fails attempt 1 as a
 * transient failure (the source retries nothing in process: the broker redelivers it).
 */
@ApplicationScoped
@HandlesWebhooks(sources = "ord")
public class OrderRecorder implements WebhookHandler {

    @PersistenceContext(unitName = "hookstile")
    EntityManager em;

    @Override
    public void handle(WebhookEvent event) throws Exception {
        Instant started = Instant.now();
        Thread.sleep(40);
        if (event.eventId().contains("fail-once") && event.attempt() == 1) {
            throw new TransientFailure("simulated transient failure on attempt 1 of " + event.eventId());
        }
        em.createNativeQuery("INSERT INTO it_order (order_key, event_id, attempt, older, started_at, ended_at)"
                        + " VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
                .setParameter(1, event.orderKey() == null ? "" : event.orderKey())
                .setParameter(2, event.eventId())
                .setParameter(3, event.attempt())
                .setParameter(4, event.olderThanLastProcessed())
                .setParameter(5, Timestamp.from(started))
                .setParameter(6, Timestamp.from(Instant.now()))
                .executeUpdate();
    }
}
