package dev.hookstile.operator.boundary;

import dev.hookstile.events.boundary.EventCounts;
import dev.hookstile.events.entity.EventStatus;
import dev.hookstile.source.boundary.Source;
import dev.hookstile.source.boundary.Sources;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/sources}: the configured sources and how many events each has recorded, by status. Only what an
 * operator may see: the number of secrets, never the secrets, and none of the provider settings' values (a verify
 * token is a secret too). Authenticated by {@link OperatorAuthentication} under the web.xml constraint on
 * {@code /api/*}.
 */
@OperatorOnly
@Path("api/sources")
@ApplicationScoped
public class SourcesResource {

    @Inject
    Sources sources;

    @Inject
    EventCounts eventCounts;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response list() {
        // A failing database answers 503 through ServerProblems, like every operator endpoint.
        Map<String, Map<String, Long>> counts = eventCounts.bySourceAndStatus();
        return Response.ok(new Listing(sources.all().stream()
                .map(source -> View.of(source, counts.getOrDefault(source.name(), Map.of()))).toList())).build();
    }

    /** {@code GET /api/sources}. */
    public record Listing(List<View> sources) {
    }

    /** A source: never its secrets, only how many there are; its events counted by status. */
    @JsonbPropertyOrder({"name", "provider", "toleranceSeconds", "secretCount", "events"})
    public record View(String name, String provider, long toleranceSeconds, int secretCount, Map<String, Long> events) {

        static View of(Source source, Map<String, Long> counted) {
            return new View(source.name(), source.provider().name(), source.tolerance().toSeconds(),
                    source.secrets().size(), byStatus(counted));
        }
    }

    private static Map<String, Long> byStatus(Map<String, Long> counted) {
        // Every status this version knows, zeros included, so a client never has to guess whether a missing key
        // means none; then any other status found in the table, so nothing recorded goes uncounted.
        Map<String, Long> byStatus = new LinkedHashMap<>();
        for (EventStatus status : EventStatus.values()) {
            byStatus.put(status.column(), 0L);
        }
        byStatus.putAll(counted);
        return byStatus;
    }
}
