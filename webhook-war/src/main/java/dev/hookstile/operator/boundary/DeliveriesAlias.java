package dev.hookstile.operator.boundary;

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

import java.util.List;

/**
 * {@code /api/deliveries}, what {@code /api/forwardings} was called before "delivery" came to mean only the request a
 * sender makes: kept for one release for the scripts that call it, deprecated. The same answers, but a page lists
 * its forwardings under {@code deliveries} as it did; every answer says {@code Deprecation: true} and links its
 * successor.
 */
@OperatorOnly
@Path("api/deliveries")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
public class DeliveriesAlias {

    @Inject
    ForwardingsResource forwardings;

    @GET
    public Response list(@QueryParam("source") String source, @QueryParam("status") String status,
                         @QueryParam("type") String type, @QueryParam("since") String since,
                         @QueryParam("until") String until, @QueryParam("limit") String limit,
                         @QueryParam("after") String after, @QueryParam("eventId") String eventId) {
        Response answer = forwardings.list(source, status, type, since, until, limit, after, eventId);
        return answer.getEntity() instanceof ForwardingsResource.Page page
                ? deprecated(Response.fromResponse(answer).entity(new Page(page.forwardings(), page.next())).build())
                : deprecated(answer);
    }

    @GET
    @Path("{id}")
    public Response detail(@PathParam("id") String id) {
        return deprecated(forwardings.detail(id));
    }

    @POST
    @Path("{id}/replay")
    public Response replay(@PathParam("id") String id) {
        return deprecated(forwardings.replay(id));
    }

    /** A page as {@code /api/deliveries} answered it. */
    @JsonbPropertyOrder({"deliveries", "next"})
    public record Page(List<ForwardingsResource.View> deliveries, String next) {
    }

    private static Response deprecated(Response answer) {
        return Response.fromResponse(answer).header("Deprecation", "true")
                .header("Link", "<" + ForwardingsResource.PATH + ">; rel=\"successor-version\"").build();
    }
}
