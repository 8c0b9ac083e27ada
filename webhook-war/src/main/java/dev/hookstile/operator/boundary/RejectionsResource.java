package dev.hookstile.operator.boundary;

import dev.hookstile.refusal.Refusal;
import dev.hookstile.refusal.RefusalQuery;
import dev.hookstile.refusal.boundary.RefusedDeliveries;
import dev.hookstile.source.Rejection;
import dev.hookstile.web.boundary.Problems;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Refused deliveries for operators: the examples kept (the first few of each source, reason and minute), newest
 * first, filtered and keyset-paginated like {@code /api/events}; one example; and the counts of every refusal by
 * source and reason since a time, each with its last example and the fix to try.
 */
@OperatorOnly
@Path("api/rejections")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
public class RejectionsResource {

    private static final Map<String, Rejection> REASONS = Arrays.stream(Rejection.values())
            .collect(Collectors.toUnmodifiableMap(Rejection::slug, Function.identity()));

    @Inject
    RefusedDeliveries refused;

    @GET
    public Response list(@QueryParam("source") String source, @QueryParam("reason") String reason,
                         @QueryParam("since") String since, @QueryParam("until") String until,
                         @QueryParam("limit") String limit, @QueryParam("after") String after) {
        RefusalQuery query;
        try {
            query = new RefusalQuery(QueryParameters.text("source", source, QueryParameters.MAX_SOURCE),
                    reason(reason), QueryParameters.instant("since", since), QueryParameters.instant("until", until),
                    QueryParameters.cursor(after), QueryParameters.limit(limit, 50, RefusalQuery.MAX_LIMIT));
        } catch (IllegalArgumentException e) {
            return QueryParameters.invalid(e, "/api/rejections");
        }
        List<Refusal> page = refused.list(query);
        return Response.ok(new Page(page.stream().map(View::of).toList(),
                QueryParameters.next(page, query.limit(), Refusal::id))).build();
    }

    @GET
    @Path("{id}")
    public Response detail(@PathParam("id") String id) {
        Long key = QueryParameters.id(id);
        Optional<Refusal> found = key == null ? Optional.empty() : refused.find(key);
        return found.map(refusal -> Response.ok(Detail.of(refusal)).build())
                .orElseGet(() -> Problems.of(404, "rejection-not-found", "Refused delivery not found",
                        "no refused delivery with this id is kept", "/api/rejections/" + (key == null ? "" : key))
                        .build());
    }

    /**
     * Every refusal since a time (an hour ago unless given), by counted source ({@code _other} for every name no
     * source has) and reason, most first; with the newest example of the reason (of that source, for a configured
     * one) and the fix to try.
     */
    @GET
    @Path("summary")
    public Response summary(@QueryParam("since") String since) {
        Instant from;
        try {
            from = Optional.ofNullable(QueryParameters.instant("since", since))
                    .orElse(Instant.now().minus(Duration.ofHours(1)));
        } catch (IllegalArgumentException e) {
            return QueryParameters.invalid(e, "/api/rejections/summary");
        }
        var reasons = refused.counts(from).stream().map(count -> {
            Rejection reason = REASONS.get(count.reason());
            String exampleSource = "_other".equals(count.source()) ? null : count.source();
            List<Refusal> last = refused.list(new RefusalQuery(exampleSource, count.reason(), null, null, null, 1));
            return new ReasonView(count.source(), count.reason(), reason == null ? count.reason() : reason.title(),
                    reason == null ? 0 : reason.status(), count.refused(), count.lastMinute().toString(),
                    reason == null ? null : reason.hint(), last.isEmpty() ? null : View.of(last.get(0)));
        }).toList();
        return Response.ok(new Summary(from.toString(), reasons)).build();
    }

    /** A page of examples; {@code next} is the cursor of the following page, absent on the last. */
    @JsonbPropertyOrder({"rejections", "next"})
    public record Page(List<View> rejections, String next) {
    }

    /** One refused delivery as kept, in a list: whether its body is kept, not the body. */
    @JsonbPropertyOrder({"id", "at", "source", "reason", "status", "detail", "remoteAddress", "headers", "bodySize",
            "bodySha256", "bodyKept"})
    public record View(long id, String at, String source, String reason, int status, String detail,
                       String remoteAddress, Map<String, String> headers, long bodySize, String bodySha256,
                       boolean bodyKept) {

        static View of(Refusal refusal) {
            return new View(refusal.id(), refusal.at().toString(), refusal.source(), refusal.reason(),
                    refusal.status(), refusal.detail(), refusal.remoteAddress(), refusal.headers(),
                    refusal.bodySize(), refusal.bodySha256(), refusal.bodyKept());
        }
    }

    /**
     * One refused delivery with its body, when kept, as text: a sender's bytes, invalid UTF-8 replaced, for the
     * operator to read (the size and SHA-256 are the whole body's).
     */
    @JsonbPropertyOrder({"id", "at", "source", "reason", "status", "detail", "remoteAddress", "headers", "bodySize",
            "bodySha256", "bodyKept", "body", "bodyTruncated"})
    public record Detail(long id, String at, String source, String reason, int status, String detail,
                         String remoteAddress, Map<String, String> headers, long bodySize, String bodySha256,
                         boolean bodyKept, String body, boolean bodyTruncated) {

        static Detail of(Refusal refusal) {
            return new Detail(refusal.id(), refusal.at().toString(), refusal.source(), refusal.reason(),
                    refusal.status(), refusal.detail(), refusal.remoteAddress(), refusal.headers(),
                    refusal.bodySize(), refusal.bodySha256(), refusal.body() != null,
                    refusal.body() == null ? null : StandardCharsets.UTF_8.decode(ByteBuffer.wrap(refusal.body()))
                            .toString(), refusal.body() != null && refusal.bodyTruncated());
        }
    }

    /** The refusals of one counted source and reason. */
    @JsonbPropertyOrder({"source", "reason", "title", "status", "refused", "lastMinute", "hint", "example"})
    public record ReasonView(String source, String reason, String title, int status, long refused, String lastMinute,
                             String hint, View example) {
    }

    /** The summary since a time. */
    @JsonbPropertyOrder({"since", "reasons"})
    public record Summary(String since, List<ReasonView> reasons) {
    }

    private static String reason(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String slug = value.trim();
        if (!REASONS.containsKey(slug)) {
            throw new IllegalArgumentException("reason must be one of the problem types' last segments, e.g. "
                    + "invalid-signature");
        }
        return slug;
    }
}
