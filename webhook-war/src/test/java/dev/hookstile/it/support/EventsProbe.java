package dev.hookstile.it.support;

import dev.hookstile.events.entity.EventAttempt;
import dev.hookstile.events.entity.ReceivedEvent;
import jakarta.enterprise.context.RequestScoped;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.util.Base64;
import java.util.List;

/**
 * Test-only read access: what the database holds for one event (through the product's entity) and how often the
 * test handler's effect was committed.
 */
@Path("it/events/{source}/{eventId}")
@RequestScoped
public class EventsProbe {

    @PersistenceContext(unitName = "hookstile")
    EntityManager em;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public String get(@PathParam("source") String source, @PathParam("eventId") String eventId) {
        var json = Json.createObjectBuilder();
        ReceivedEvent event = em.find(ReceivedEvent.class, new ReceivedEvent.Key(source, eventId));
        if (event == null) {
            json.add("status", "absent");
        } else {
            json.add("status", event.getStatus().column())
                    .add("attempts", event.getAttempts())
                    .add("type", event.getType())
                    .add("provider", event.getProvider())
                    .add("headers", event.getHeaders())
                    .add("payload", Base64.getEncoder().encodeToString(event.getPayload()))
                    .add("processed", event.getProcessedAt() != null);
        }
        @SuppressWarnings("unchecked")
        List<Object[]> effectRows = em.createNativeQuery(
                        "SELECT attempt, trace_parent FROM it_effect WHERE source = ?1 AND event_id = ?2 ORDER BY attempt")
                .setParameter(1, source)
                .setParameter(2, eventId)
                .getResultList();
        JsonArrayBuilder effects = Json.createArrayBuilder();
        JsonArrayBuilder effectTraces = Json.createArrayBuilder();
        for (Object[] row : effectRows) {
            effects.add(((Number) row[0]).intValue());
            effectTraces.add(row[1] == null ? "" : (String) row[1]);
        }
        JsonArrayBuilder history = Json.createArrayBuilder();
        for (EventAttempt attempt : em.createNamedQuery(EventAttempt.OF_EVENT, EventAttempt.class)
                .setParameter("source", source).setParameter("eventId", eventId).getResultList()) {
            var line = Json.createObjectBuilder()
                    .add("attempt", attempt.getAttempt())
                    .add("outcome", attempt.getOutcome())
                    .add("atMillis", attempt.getAt().toInstant().toEpochMilli());
            if (attempt.getFailure() != null) {
                line.add("failure", attempt.getFailure());
            }
            if (attempt.getError() != null) {
                line.add("error", attempt.getError());
            }
            history.add(line);
        }
        return json.add("effects", effectRows.size()).add("effectAttempts", effects).add("effectTraces", effectTraces)
                .add("history", history)
                .build().toString();
    }

    /** The test's stand-in for fixing the cause of a failure: the handler stops failing for this event. */
    @POST
    @Path("fix")
    @Transactional
    public void fix(@PathParam("source") String source, @PathParam("eventId") String eventId) {
        em.createNativeQuery("INSERT INTO it_fixed (event_id) VALUES (?1)").setParameter(1, eventId).executeUpdate();
    }

    /** The event as if received before its source had search keys: its keys gone (a back-fill writes them). */
    @POST
    @Path("forget-keys")
    @Transactional
    public void forgetKeys(@PathParam("source") String source, @PathParam("eventId") String eventId) {
        em.createNativeQuery("DELETE FROM event_key WHERE source = ?1 AND event_id = ?2").setParameter(1, source)
                .setParameter(2, eventId).executeUpdate();
    }
}
