package dev.hookstile.operator.boundary;

import dev.hookstile.outbox.boundary.Forwardings;
import dev.hookstile.outbox.boundary.Forwarding;
import dev.hookstile.outbox.boundary.ForwardingQuery;
import dev.hookstile.web.boundary.Problems;
import dev.hookstile.platform.Redacted;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.time.Instant;
import java.util.List;

/**
 * The outbox for operators, shaped like {@code /api/events}: a filtered, keyset-paginated list of forwardings to
 * destinations (handlers' effects and notifications included), one forwarding, and sending a delivered or dead one
 * again. {@link DeliveriesAlias} serves the same under the path it had before, {@code /api/deliveries}.
 */
@OperatorOnly
@Path("api/forwardings")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
public class ForwardingsResource {

    static final String PATH = "/api/forwardings";

    @Inject
    Forwardings forwardings;

    @GET
    public Response list(@QueryParam("source") String source, @QueryParam("status") String status,
                         @QueryParam("type") String type, @QueryParam("since") String since,
                         @QueryParam("until") String until, @QueryParam("limit") String limit,
                         @QueryParam("after") String after, @QueryParam("eventId") String eventId) {
        ForwardingQuery query;
        try {
            // eventId is exact and only with source (one event's forwardings and effects, by the outbox's key).
            query = new ForwardingQuery(QueryParameters.text("source", source, QueryParameters.MAX_SOURCE),
                    QueryParameters.eventId(eventId), QueryParameters.text("status", status, QueryParameters.MAX_TEXT),
                    QueryParameters.text("type", type, QueryParameters.MAX_TEXT),
                    QueryParameters.instant("since", since), QueryParameters.instant("until", until),
                    QueryParameters.cursor(after), QueryParameters.limit(limit, 50, ForwardingQuery.MAX_LIMIT));
        } catch (IllegalArgumentException e) {
            return QueryParameters.invalid(e, PATH);
        }
        List<Forwarding> page = forwardings.list(query);
        return Response.ok(new Page(page.stream().map(View::of).toList(),
                QueryParameters.next(page, query.limit(), Forwarding::id))).build();
    }

    @GET
    @Path("{id}")
    public Response detail(@PathParam("id") String id) {
        Long key = QueryParameters.id(id);
        return key == null ? notFound(id) : forwardings.find(key)
                .map(forwarding -> Response.ok(View.of(forwarding)).build())
                .orElseGet(() -> notFound(id));
    }

    @POST
    @Path("{id}/replay")
    public Response replay(@PathParam("id") String id) {
        Long key = QueryParameters.id(id);
        if (key == null) {
            return notFound(id);
        }
        return switch (forwardings.replay(key, Instant.now())) {
            case QUEUED -> Response.accepted(new Pending("pending", key)).build();
            case ALREADY_PENDING -> Problems.of(409, "already-pending", "Already pending",
                    "the forwarding is pending: the relay sends it; replay it once it is delivered or dead",
                    PATH + "/" + key + "/replay").build();
            case FILTERED -> Problems.of(409, "not-forwarded", "Not forwarded",
                    "the destination's filter does not match the event's body (its _DESTINATION_FILTER): it is not sent,"
                            + " and a replay would not change that", PATH + "/" + key + "/replay").build();
            case NOT_FOUND -> notFound(id);
        };
    }

    /** A page of {@code GET /api/forwardings}; {@code next} is the cursor of the following page, absent on the last. */
    @JsonbPropertyOrder({"forwardings", "next"})
    public record Page(List<View> forwardings, String next) {
    }

    /**
     * One forwarding. {@code replayable}: an operator's replay would send it again; {@code effect} only for a
     * handler's effect (n of the event, from 1), {@code nextAttemptAt} only while pending; absent values are left
     * out.
     */
    @JsonbPropertyOrder({"id", "source", "eventId", "destination", "status", "replayable", "attempts", "createdAt",
            "effect", "type", "nextAttemptAt", "deliveredAt", "lastError"})
    public record View(long id, String source, String eventId, String destination, String status, boolean replayable,
                       int attempts, String createdAt, Integer effect, String type, String nextAttemptAt,
                       String deliveredAt, String lastError) {

        static View of(Forwarding forwarding) {
            // The URL is kept whole to send to it; an answer shows its scheme, host and port only: a destination's or
            // the notification endpoint's path may be its secret (a chat's incoming webhook), and a failure's message
            // may quote the URL.
            return new View(forwarding.id(), forwarding.source(), forwarding.eventId(),
                    Redacted.endpoint(forwarding.destination()),
                    forwarding.status(), Forwarding.replayable(forwarding.status()), forwarding.attempts(),
                    forwarding.createdAt().toString(),
                    forwarding.effect() > 0 ? forwarding.effect() : null, forwarding.type(),
                    Forwarding.PENDING.equals(forwarding.status()) ? text(forwarding.nextAttemptAt()) : null,
                    text(forwarding.deliveredAt()), Redacted.endpoint(forwarding.lastError()));
        }

        private static String text(Instant time) {
            return time == null ? null : time.toString();
        }
    }

    /** The answer to a replay: the forwarding is pending again. */
    public record Pending(String status, long id) {
    }

    private static Response notFound(String id) {
        String shown = id.length() > 40 ? id.substring(0, 40) + "..." : id;
        return Problems.of(404, "forwarding-not-found", "Forwarding not found",
                "no forwarding " + shown.replaceAll("\\p{Cntrl}", "?") + " is recorded", PATH + "/" + id)
                .build();
    }
}
