package dev.hookstile.operator.boundary;

import dev.hookstile.dedup.boundary.EventCounts;
import dev.hookstile.dedup.entity.EventStatus;
import dev.hookstile.platform.boundary.Problems;
import dev.hookstile.source.boundary.Source;
import dev.hookstile.source.boundary.Sources;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.spi.JsonProvider;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code GET /api/sources}: the configured sources and how many events each has recorded, by status. Only what an
 * operator may see: the number of secrets, never the secrets, and none of the provider settings' values (a verify
 * token is a secret too). Authenticated by {@link OperatorAuthentication} under the web.xml constraint on
 * {@code /api/*}.
 */
@Path("api/sources")
@ApplicationScoped
public class SourcesResource {

    // Json.createObjectBuilder() looks the provider up through the ServiceLoader on every call: resolve it once.
    private static final JsonProvider JSON = JsonProvider.provider();

    @Inject
    Sources sources;

    @Inject
    EventCounts eventCounts;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response list() {
        // A failing database answers 503 through DatabaseProblems, like every operator endpoint.
        Map<String, Map<String, Long>> counts = eventCounts.bySourceAndStatus();
        var list = JSON.createArrayBuilder();
        for (Source source : sources.all()) {
            list.add(json(source, counts.getOrDefault(source.name(), Map.of())));
        }
        return Response.ok(JSON.createObjectBuilder().add("sources", list).build().toString(),
                MediaType.APPLICATION_JSON_TYPE).build();
    }

    private static JsonObjectBuilder json(Source source, Map<String, Long> counted) {
        // Every status this version knows, zeros included, so a client never has to guess whether a missing key
        // means none; then any other status found in the table, so nothing recorded goes uncounted.
        Map<String, Long> byStatus = new LinkedHashMap<>();
        for (EventStatus status : EventStatus.values()) {
            byStatus.put(status.column(), 0L);
        }
        byStatus.putAll(counted);
        var events = JSON.createObjectBuilder();
        byStatus.forEach(events::add);
        return JSON.createObjectBuilder()
                .add("name", source.name())
                .add("provider", source.provider().name())
                .add("toleranceSeconds", source.tolerance().toSeconds())
                .add("secretCount", source.secrets().size())
                .add("events", events);
    }
}
