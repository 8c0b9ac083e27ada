package dev.hookstile.operator.boundary;

import dev.hookstile.events.boundary.DeadGroups;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.time.Instant;
import java.util.List;

/**
 * {@code GET /api/dead-groups?source=&since=&until=}: dead events grouped by source, type and last error, largest
 * first, at most {@value DeadGroups#MAX_GROUPS} groups over the newest {@value DeadGroups#SAMPLE} dead events
 * ({@code sampled} when there were more). A group replays with {@code POST /api/replays} and its source, type
 * ({@code typeExact}) and error.
 */
@OperatorOnly
@Path("api/dead-groups")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
public class DeadGroupsResource {

    @Inject
    DeadGroups deadGroups;

    @GET
    public Response groups(@QueryParam("source") String source, @QueryParam("since") String since,
                           @QueryParam("until") String until) {
        DeadGroups.Result result;
        try {
            String only = QueryParameters.text("source", source, QueryParameters.MAX_SOURCE);
            Instant from = QueryParameters.instant("since", since);
            Instant to = QueryParameters.instant("until", until);
            result = deadGroups.of(only, from, to);
        } catch (IllegalArgumentException e) {
            return QueryParameters.invalid(e, "/api/dead-groups");
        }
        return Response.ok(new Listing(result.groups().stream().map(Group::of).toList(), result.sampled())).build();
    }

    @JsonbPropertyOrder({"groups", "sampled"})
    public record Listing(List<Group> groups, boolean sampled) {
    }

    /** {@code error} is absent for dead events recorded without one. */
    @JsonbPropertyOrder({"source", "type", "error", "count", "lastAt"})
    public record Group(String source, String type, String error, long count, String lastAt) {

        static Group of(DeadGroups.Group group) {
            return new Group(group.source(), group.type(), group.error(), group.count(), group.lastAt().toString());
        }
    }
}
