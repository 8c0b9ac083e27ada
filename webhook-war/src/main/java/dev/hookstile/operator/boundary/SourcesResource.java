package dev.hookstile.operator.boundary;

import dev.hookstile.events.boundary.EventCounts;
import dev.hookstile.events.entity.EventStatus;
import dev.hookstile.platform.Redacted;
import dev.hookstile.search.boundary.SearchKeys;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code GET /api/sources}: the configured sources with their settings as the server understood them, and how many
 * events each has recorded, by status, each count bounded ({@link EventCounts#COUNT_LIMIT}): no count over the whole
 * event table. Only what an operator may see: the number of secrets, never the secrets; URLs redacted (a destination
 * cut to its scheme, host and port); none of the provider-specific settings' values (a verify token is a secret too).
 */
@OperatorOnly
@Path("api/sources")
@ApplicationScoped
public class SourcesResource {

    @Inject
    Sources sources;

    @Inject
    EventCounts eventCounts;

    @Inject
    SearchKeys searchKeys;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response list() {
        // A failing database answers 503 through ServerProblems, like every operator endpoint.
        List<View> views = new ArrayList<>();
        for (Source source : sources.all()) {
            views.add(View.of(source, searchKeys.all().getOrDefault(source.name(), Set.of()),
                    eventCounts.bySource(source.name())));
        }
        return Response.ok(new Listing(views, EventCounts.COUNT_LIMIT)).build();
    }

    /** {@code GET /api/sources}; a count equal to {@code countLimit} means at least that many. */
    @JsonbPropertyOrder({"sources", "countLimit"})
    public record Listing(List<View> sources, int countLimit) {
    }

    /**
     * A source and its settings: never its secrets, only how many there are; its provider's signing scheme in words,
     * as the provider's code states it; its events counted by status.
     */
    @JsonbPropertyOrder({"name", "provider", "signingScheme", "toleranceSeconds", "secretCount", "publicKeyCount",
            "bodyDedupWindowSeconds", "retentionDays", "orderKey", "searchKeys", "destinations", "publicUrl", "events"})
    public record View(String name, String provider, String signingScheme, long toleranceSeconds, int secretCount, int publicKeyCount,
                       long bodyDedupWindowSeconds, long retentionDays, String orderKey, List<String> searchKeys,
                       List<DestinationView> destinations, String publicUrl, Map<String, Long> events) {

        static View of(Source source, Set<String> searchKeys, Map<EventStatus, Long> counted) {
            Map<String, Long> byStatus = new LinkedHashMap<>();
            counted.forEach((status, count) -> byStatus.put(status.column(), count));
            return new View(source.name(), source.provider().name(),
                    source.provider().signingScheme(source.settings()), source.tolerance().toSeconds(),
                    source.secrets().size(), source.publicKeyCount(), source.bodyDedupWindow().toSeconds(), source.retention().toDays(),
                    source.orderKey(), new TreeSet<>(searchKeys).stream().toList(), DestinationView.of(source),
                    source.setting("public-url").map(Redacted::url).orElse(null), byStatus);
        }
    }

    /**
     * Where a source's processed events go: {@code http} (the outbox, {@code target} the URL's scheme, host and port
     * only: its path may be its secret) or {@code jms} ({@code queue:NAME} or {@code topic:NAME}); {@code types}
     * empty for all.
     */
    @JsonbPropertyOrder({"kind", "target", "types"})
    public record DestinationView(String kind, String target, List<String> types) {

        static List<DestinationView> of(Source source) {
            List<DestinationView> views = new ArrayList<>();
            if (source.destination() != null) {
                views.add(new DestinationView("http", Redacted.endpoint(source.destination().url().toString()),
                        source.destination().types()));
            }
            if (source.backOffice() != null) {
                views.add(new DestinationView("jms", (source.backOffice().topic() ? "topic:" : "queue:")
                        + source.backOffice().name(), source.backOffice().types()));
            }
            return views;
        }
    }
}
