package dev.hookstile.operator.boundary;

import dev.hookstile.events.boundary.EventCounts;
import dev.hookstile.outbox.boundary.Breakers;
import dev.hookstile.outbox.boundary.Forwardings;
import dev.hookstile.outbox.boundary.Forwarding;
import dev.hookstile.platform.Redacted;
import dev.hookstile.source.Source;
import dev.hookstile.source.boundary.Sources;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code GET /api/destinations}: every configured destination with its circuit breaker (this instance's) and how
 * many forwardings to it are pending and dead, each bounded by {@link EventCounts#COUNT_LIMIT}. A JMS back office
 * has neither breaker nor outbox: its messages are sent inside the processing transaction.
 */
@OperatorOnly
@Path("api/destinations")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
public class DestinationsResource {

    @Inject
    Sources sources;

    @Inject
    Breakers breakers;

    @Inject
    Forwardings deliveries;

    @GET
    public Response list() {
        return Response.ok(new Listing(views(), EventCounts.COUNT_LIMIT)).build();
    }

    List<View> views() {
        List<View> views = new ArrayList<>();
        for (Source source : sources.all()) {
            if (source.destination() != null) {
                String url = source.destination().url().toString();
                // Scheme, host and port only: the path may be the destination's secret (the breaker and the counts
                // still go by the whole URL, as stored).
                views.add(new View(source.name(), "http", Redacted.endpoint(url), breakers.of(url).label(),
                        deliveries.count(source.name(), url, Forwarding.PENDING, EventCounts.COUNT_LIMIT),
                        deliveries.count(source.name(), url, Forwarding.DEAD, EventCounts.COUNT_LIMIT)));
            }
            if (source.backOffice() != null) {
                views.add(new View(source.name(), "jms", (source.backOffice().topic() ? "topic:" : "queue:")
                        + source.backOffice().name(), null, null, null));
            }
        }
        return views;
    }

    @JsonbPropertyOrder({"destinations", "countLimit"})
    public record Listing(List<View> destinations, int countLimit) {
    }

    /** {@code breaker}, {@code pending} and {@code dead} are absent for a JMS destination. */
    @JsonbPropertyOrder({"source", "kind", "target", "breaker", "pending", "dead"})
    public record View(String source, String kind, String target, String breaker, Long pending, Long dead) {
    }
}
