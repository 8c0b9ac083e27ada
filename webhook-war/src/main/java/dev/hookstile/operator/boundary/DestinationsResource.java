package dev.hookstile.operator.boundary;

import dev.hookstile.api.Text;
import dev.hookstile.events.boundary.EventCounts;
import dev.hookstile.outbox.boundary.Breakers;
import dev.hookstile.outbox.boundary.Forwardings;
import dev.hookstile.outbox.boundary.Forwarding;
import dev.hookstile.platform.Redacted;
import dev.hookstile.platform.boundary.LogFields;
import dev.hookstile.web.boundary.Problems;
import dev.hookstile.source.Source;
import dev.hookstile.source.boundary.Sources;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

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

    private static final Logger LOG = Logger.getLogger(DestinationsResource.class.getName());

    @Inject
    Sources sources;

    @Inject
    Breakers breakers;

    @Inject
    Forwardings forwardings;

    @GET
    public Response list() {
        return Response.ok(new Listing(views(), EventCounts.COUNT_LIMIT)).build();
    }

    /**
     * {@code POST /api/destinations/{source}/pause}: the source's HTTP destination holds its forwardings (created,
     * counted, never sent, never dead because of it) until resumed, on every instance and across restarts.
     * Idempotent: a paused destination stays paused since its first pause.
     */
    @POST
    @Path("{source}/pause")
    public Response pause(@PathParam("source") String source) {
        return change(source, "pause", url -> forwardings.pause(source, url, Instant.now()));
    }

    /** {@code POST /api/destinations/{source}/resume}: what it held is sent in order of creation, at its pace. */
    @POST
    @Path("{source}/resume")
    public Response resume(@PathParam("source") String source) {
        return change(source, "resume", url -> forwardings.resume(source, url));
    }

    private Response change(String source, String action, java.util.function.Consumer<String> change) {
        Optional<Source> found = Text.withoutControls(source) ? sources.find(source) : Optional.empty();
        if (found.isEmpty() || found.get().destination() == null) {
            return Problems.of(404, "destination-not-found", "Destination not found", "no source of this name "
                    + "forwards to an HTTP destination (HOOKSTILE_SOURCES_<NAME>_DESTINATION_URL)",
                    "/api/destinations/" + action).build();
        }
        String url = found.get().destination().url().toString();
        change.accept(url);
        LogFields.of("source", source).log(LOG, Level.INFO, () -> "Destination of source " + source + " "
                + (action.equals("pause") ? "paused" : "resumed") + " by an operator");
        return Response.ok(view(found.get(), forwardings.paused())).build();
    }

    List<View> views() {
        List<View> views = new ArrayList<>();
        Map<List<String>, Instant> paused = forwardings.paused();
        for (Source source : sources.all()) {
            if (source.destination() != null) {
                views.add(view(source, paused));
            }
            if (source.backOffice() != null) {
                views.add(new View(source.name(), "jms", (source.backOffice().topic() ? "topic:" : "queue:")
                        + source.backOffice().name(), null, null, null, null, null, null, null));
            }
        }
        return views;
    }

    private View view(Source source, Map<List<String>, Instant> paused) {
        String url = source.destination().url().toString();
        Instant since = paused.get(List.of(source.name(), url));
        // Scheme, host and port only: the path may be the destination's secret (the breaker and the counts still go
        // by the whole URL, as stored).
        return new View(source.name(), "http", Redacted.endpoint(url), breakers.of(url).label(),
                forwardings.count(source.name(), url, Forwarding.PENDING, EventCounts.COUNT_LIMIT),
                forwardings.count(source.name(), url, Forwarding.DEAD, EventCounts.COUNT_LIMIT),
                since != null, since == null ? null : since.toString(),
                source.destination().pace().limited() ? source.destination().pace().perSecond() : null,
                source.destination().pace().concurrency() > 0 ? source.destination().pace().concurrency() : null);
    }

    @JsonbPropertyOrder({"destinations", "countLimit"})
    public record Listing(List<View> destinations, int countLimit) {
    }

    /**
     * {@code breaker}, {@code pending}, {@code dead} and {@code paused} are absent for a JMS destination; while
     * {@code paused} (since {@code pausedAt}), {@code pending} counts what it holds. {@code ratePerSecond} and
     * {@code concurrency} are its own pace, absent when it has none.
     */
    @JsonbPropertyOrder({"source", "kind", "target", "breaker", "pending", "dead", "paused", "pausedAt",
            "ratePerSecond", "concurrency"})
    public record View(String source, String kind, String target, String breaker, Long pending, Long dead,
                       Boolean paused, String pausedAt, Double ratePerSecond, Integer concurrency) {
    }
}
