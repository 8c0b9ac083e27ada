package dev.hookstile.it.support;

import jakarta.enterprise.context.RequestScoped;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.sql.Timestamp;
import java.util.List;

/** Test-only: what {@link OrderRecorder} recorded for an order key, in the order the runs committed. */
@Path("it/order/{key}")
@RequestScoped
public class OrderProbe {

    @PersistenceContext(unitName = "hookstile")
    EntityManager em;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public String runs(@PathParam("key") String key) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = em.createNativeQuery("SELECT event_id, attempt, older, started_at, ended_at FROM it_order"
                        + " WHERE order_key = ?1 ORDER BY id")
                .setParameter(1, key)
                .getResultList();
        JsonArrayBuilder runs = Json.createArrayBuilder();
        for (Object[] row : rows) {
            runs.add(Json.createObjectBuilder()
                    .add("eventId", (String) row[0])
                    .add("attempt", ((Number) row[1]).intValue())
                    .add("older", Boolean.TRUE.equals(row[2]))
                    .add("startedMicros", micros(row[3]))
                    .add("endedMicros", micros(row[4])));
        }
        return runs.build().toString();
    }

    private static long micros(Object value) {
        java.time.Instant at = value instanceof Timestamp t ? t.toInstant()
                : ((java.time.OffsetDateTime) value).toInstant();
        return at.getEpochSecond() * 1_000_000 + at.getNano() / 1_000;
    }
}
