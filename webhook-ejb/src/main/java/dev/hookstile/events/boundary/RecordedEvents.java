package dev.hookstile.events.boundary;

import dev.hookstile.events.entity.EventAttempt;
import dev.hookstile.events.entity.ReceivedEvent;
import dev.hookstile.source.boundary.Source;
import dev.hookstile.source.boundary.Sources;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.TypedQuery;

import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Reading what was recorded: lists for operators, one event with its history. */
@ApplicationScoped
public class RecordedEvents {

    @Inject
    EntityManager em;

    @Inject
    Sources sources;

    /**
     * One page, newest first; at most {@code query.limit()} events. An event id without a source is looked up under
     * every configured source (and {@code _unreadable}): one primary-key probe each, where a condition on the id alone
     * would read the whole table (the key leads with the source).
     */
    public List<EventSummary> list(EventQuery query) {
        var jpql = new StringBuilder("""
                SELECT NEW dev.hookstile.events.boundary.EventSummary(e.source, e.eventId, e.provider, e.type,
                       e.status, e.attempts, e.receivedAt, e.processedAt, e.lastError)
                FROM ReceivedEvent e WHERE 1 = 1""");
        if (query.source() != null) {
            jpql.append(" AND e.source = :source");
        }
        if (query.status() != null) {
            jpql.append(" AND e.status = :status");
        }
        if (query.type() != null) {
            jpql.append(query.typeExact() ? " AND e.type = :type" : " AND e.type LIKE :type ESCAPE '\\'");
        }
        if (query.error() != null) {
            jpql.append(" AND e.lastError = :error");
        }
        if (query.eventId() != null) {
            jpql.append(" AND e.eventId = :eventId");
            if (query.source() == null) {
                jpql.append(" AND e.source IN :sources");
            }
        }
        if (query.since() != null) {
            jpql.append(" AND e.receivedAt >= :since");
        }
        if (query.until() != null) {
            jpql.append(" AND e.receivedAt < :until");
        }
        if (query.after() != null) {
            // The first condition says the same as the rest and is what bounds the walk of the index: without it
            // PostgreSQL read every newer event to reach the page (430 ms two weeks deep at a million events).
            jpql.append(" AND e.receivedAt <= :t AND (e.receivedAt < :t OR (e.receivedAt = :t AND (e.source < :s"
                    + " OR (e.source = :s AND e.eventId < :e))))");
        }
        jpql.append(" ORDER BY e.receivedAt DESC, e.source DESC, e.eventId DESC");
        TypedQuery<EventSummary> typed = em.createQuery(jpql.toString(), EventSummary.class);
        if (query.source() != null) {
            typed.setParameter("source", query.source());
        }
        if (query.status() != null) {
            typed.setParameter("status", query.status());
        }
        if (query.type() != null) {
            typed.setParameter("type", query.typeExact() ? query.type() : EventQuery.prefixPattern(query.type()));
        }
        if (query.error() != null) {
            typed.setParameter("error", query.error());
        }
        if (query.eventId() != null) {
            typed.setParameter("eventId", query.eventId());
            if (query.source() == null) {
                List<String> names = new ArrayList<>();
                sources.all().stream().map(Source::name).forEach(names::add);
                names.add(ReceivedEvent.UNREADABLE_SOURCE);
                typed.setParameter("sources", names);
            }
        }
        if (query.since() != null) {
            typed.setParameter("since", query.since().atOffset(ZoneOffset.UTC));
        }
        if (query.until() != null) {
            typed.setParameter("until", query.until().atOffset(ZoneOffset.UTC));
        }
        if (query.after() != null) {
            typed.setParameter("t", query.after().receivedAt())
                    .setParameter("s", query.after().source())
                    .setParameter("e", query.after().eventId());
        }
        return typed.setMaxResults(query.limit()).getResultList();
    }

    /**
     * The event, read whole before the caller reads its {@link #history}. Its payload is lazy, and loading it reads
     * the row again: loaded after the history, a try committing in between showed {@code completed} beside a
     * history without that try.
     */
    public Optional<ReceivedEvent> find(String source, String eventId) {
        ReceivedEvent event = em.find(ReceivedEvent.class, new ReceivedEvent.Key(source, eventId));
        if (event != null) {
            event.getPayload();
        }
        return Optional.ofNullable(event);
    }

    public List<EventAttempt> history(String source, String eventId) {
        return em.createNamedQuery(EventAttempt.OF_EVENT, EventAttempt.class)
                .setParameter("source", source)
                .setParameter("eventId", eventId)
                .getResultList();
    }
}
