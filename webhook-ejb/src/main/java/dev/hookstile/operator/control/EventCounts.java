package dev.hookstile.operator.control;

import dev.hookstile.dedup.entity.EventStatus;
import dev.hookstile.dedup.entity.ReceivedEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;

/** How many recorded events each source has, by status: what an operator looks at first. */
@ApplicationScoped
public class EventCounts {

    /** An overview must answer, or fail, while someone is waiting: a database that hangs is reported, not waited for. */
    static final int TIMEOUT_MILLIS = 5_000;

    @PersistenceContext(unitName = "hookstile")
    EntityManager em;

    /**
     * Counts by source name and status, in one grouped query; sources without recorded events are absent.
     *
     * @throws jakarta.persistence.PersistenceException when the database cannot answer
     */
    public Map<String, Map<EventStatus, Long>> bySourceAndStatus() {
        Map<String, Map<EventStatus, Long>> counts = new HashMap<>();
        em.createNamedQuery(ReceivedEvent.COUNT_BY_SOURCE_AND_STATUS, Object[].class)
                .setHint("jakarta.persistence.query.timeout", TIMEOUT_MILLIS)
                .getResultList()
                .forEach(row -> counts.computeIfAbsent((String) row[0], s -> new EnumMap<>(EventStatus.class))
                        .put((EventStatus) row[1], ((Number) row[2]).longValue()));
        return counts;
    }
}
