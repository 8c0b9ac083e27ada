package dev.hookstile.events.boundary;

import dev.hookstile.events.entity.ReceivedEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** How many recorded events each source has, by status: what an operator looks at first. */
@ApplicationScoped
public class EventCounts {

    /** An overview must answer, or fail, while someone is waiting: a database that hangs is reported, not waited for. */
    static final int TIMEOUT_MILLIS = 5_000;

    @Inject
    EntityManager em;

    /**
     * Counts by source name and status as stored ({@code received}, {@code completed}, and any status a newer
     * version wrote), in one grouped query; sources without recorded events are absent.
     *
     * @throws jakarta.persistence.PersistenceException when the database cannot answer
     */
    public Map<String, Map<String, Long>> bySourceAndStatus() {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = em.createNamedQuery(ReceivedEvent.COUNT_BY_SOURCE_AND_STATUS)
                .setHint("jakarta.persistence.query.timeout", TIMEOUT_MILLIS)
                .getResultList();
        Map<String, Map<String, Long>> counts = new HashMap<>();
        for (Object[] row : rows) {
            counts.computeIfAbsent((String) row[0], s -> new TreeMap<>())
                    .put((String) row[1], ((Number) row[2]).longValue());
        }
        return counts;
    }
}
