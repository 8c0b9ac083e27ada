package dev.hookstile.events.boundary;

import dev.hookstile.events.entity.EventAttempt;
import dev.hookstile.events.entity.EventStatus;
import dev.hookstile.events.entity.ReceivedEvent;
import dev.hookstile.source.Source;
import dev.hookstile.source.boundary.Sources;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.TypedQuery;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.OffsetDateTime;
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
     * How many events one page of an operator's list may examine when its filter is not what an index is ordered
     * by (a type prefix, an error, a source without a status): a filter that matches few events or none would
     * otherwise read the whole table for one page (0.2 to 0.6 s at a million events, 30 times that at thirty).
     */
    @Inject
    @ConfigProperty(name = "hookstile.operator.list-scan-events", defaultValue = "20000")
    int scanEvents;

    /** A page of a list, and where the next one starts ({@code null} when nothing older can match). */
    public record Page(List<EventSummary> events, EventQuery.Position next) {
    }

    /**
     * One page for an operator, newest first. When its filter is not served by an index in that order, the page
     * looks at the newest {@code hookstile.operator.list-scan-events} events after the cursor only: it may then hold
     * fewer events than the limit, or none, and still have a {@code next} cursor to search older ones. Indexed
     * filters (a status that needs an operator, a source with a status, an event id, a time range alone) are
     * answered whole.
     */
    public Page page(EventQuery query) {
        EventQuery.Position floor = scanned(query) ? floor(query) : null;
        List<EventSummary> events = list(query, floor);
        if (events.size() == query.limit()) {
            return new Page(events, EventQuery.Position.of(events.get(events.size() - 1)));
        }
        return new Page(events, floor);
    }

    /** Whether a page of this query would walk events in time order filtering on what no index holds. */
    private static boolean scanned(EventQuery query) {
        if (query.eventId() != null || query.key() != null) {
            return false;
        }
        boolean operatorStatus = query.status() != null && (query.status().open() || query.status() == EventStatus.DEAD);
        boolean unindexed = query.type() != null || query.error() != null
                || query.source() != null && query.status() == null;
        return unindexed && !operatorStatus;
    }

    /**
     * The position of the {@code scanEvents}-th event after the query's cursor within its time range (the newest
     * first), or null if there are fewer: a range in the past is searched from its own end, not from now.
     */
    private EventQuery.Position floor(EventQuery query) {
        var jpql = new StringBuilder("SELECT e.receivedAt, e.source, e.eventId FROM ReceivedEvent e WHERE 1 = 1");
        appendWindow(jpql, query);
        jpql.append(" ORDER BY e.receivedAt DESC, e.source DESC, e.eventId DESC");
        TypedQuery<Object[]> typed = em.createQuery(jpql.toString(), Object[].class);
        bindWindow(typed, query);
        List<Object[]> row = typed.setFirstResult(Math.max(0, scanEvents - 1)).setMaxResults(1).getResultList();
        return row.isEmpty() ? null
                : new EventQuery.Position((OffsetDateTime) row.get(0)[0], (String) row.get(0)[1], (String) row.get(0)[2]);
    }

    /**
     * After a cursor, newest first. The first condition says the same as the rest and is what bounds the walk of the
     * index: without it PostgreSQL read every newer event to reach the page (430 ms two weeks deep at a million
     * events).
     */
    private static final String AFTER = " AND x.receivedAt <= :t AND (x.receivedAt < :t OR (x.receivedAt = :t"
            + " AND (x.source < :s OR (x.source = :s AND x.eventId < :e))))";

    /**
     * The query's time range and cursor: the conditions both the page and its floor are bounded by, on the events
     * ({@code e}) or, for a key's events, on the key rows ({@code k}), which hold the same time and key in the order
     * of their index.
     */
    private static void appendWindow(StringBuilder jpql, EventQuery query) {
        String x = query.key() != null ? "k" : "e";
        if (query.since() != null) {
            jpql.append(" AND ").append(x).append(".receivedAt >= :since");
        }
        if (query.until() != null) {
            jpql.append(" AND ").append(x).append(".receivedAt < :until");
        }
        if (query.after() != null) {
            jpql.append(AFTER.replace("x.", x + "."));
        }
    }

    private static void bindWindow(TypedQuery<?> typed, EventQuery query) {
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
    }

    /**
     * One page, newest first; at most {@code query.limit()} events. An event id without a source is looked up under
     * every configured source (and {@code _unreadable}): one primary-key probe each, where a condition on the id alone
     * would read the whole table (the key leads with the source).
     */
    public List<EventSummary> list(EventQuery query) {
        return list(query, null);
    }

    /** As {@link #list(EventQuery)}, and no older than {@code floor} (that event included) when given. */
    private List<EventSummary> list(EventQuery query, EventQuery.Position floor) {
        var jpql = new StringBuilder("""
                SELECT NEW dev.hookstile.events.boundary.EventSummary(e.source, e.eventId, e.provider, e.type,
                       e.status, e.attempts, e.receivedAt, e.processedAt, e.lastError)
                FROM ReceivedEvent e""");
        if (query.key() != null) {
            // Driven by the keys' index (value, time, source, id), newest first; the event by its primary key.
            jpql.append(", EventKey k WHERE k.source = e.source AND k.eventId = e.eventId AND k.keyValue = :keyValue"
                    + " AND k.pointer IN :keyPointers");
        } else {
            jpql.append(" WHERE 1 = 1");
        }
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
        appendWindow(jpql, query);
        if (floor != null) {
            jpql.append(" AND e.receivedAt >= :ft AND (e.receivedAt > :ft OR (e.receivedAt = :ft AND (e.source > :fs"
                    + " OR (e.source = :fs AND e.eventId >= :fe))))");
        }
        jpql.append(query.key() != null ? " ORDER BY k.receivedAt DESC, k.source DESC, k.eventId DESC"
                : " ORDER BY e.receivedAt DESC, e.source DESC, e.eventId DESC");
        TypedQuery<EventSummary> typed = em.createQuery(jpql.toString(), EventSummary.class);
        if (query.key() != null) {
            typed.setParameter("keyValue", query.key().value()).setParameter("keyPointers",
                    List.copyOf(query.key().pointers()));
        }
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
        bindWindow(typed, query);
        if (floor != null) {
            typed.setParameter("ft", floor.receivedAt()).setParameter("fs", floor.source())
                    .setParameter("fe", floor.eventId());
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
