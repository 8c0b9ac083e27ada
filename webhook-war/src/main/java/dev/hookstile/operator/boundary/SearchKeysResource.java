package dev.hookstile.operator.boundary;

import dev.hookstile.events.boundary.KeyBackfill;
import dev.hookstile.search.boundary.SearchKeys;
import dev.hookstile.web.boundary.Problems;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.io.StringReader;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;

/**
 * The back-fill of search keys: {@code POST /api/search-keys/backfill} with {@code {"source": ...}} writes the
 * source's keys for the events received before they were configured, in the background and resumable;
 * {@code GET /api/search-keys/backfill} shows every back-fill's progress.
 */
@OperatorOnly
@Path("api/search-keys/backfill")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
public class SearchKeysResource {

    private static final String INSTANCE = "/api/search-keys/backfill";

    @Inject
    KeyBackfill backfill;

    @Inject
    SearchKeys searchKeys;

    @GET
    public Response list() {
        return Response.ok(new Listing(backfill.all().stream().map(View::of).toList())).build();
    }

    /** Starts the source's back-fill, or answers the one running: calling it again is safe. */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response start(String body) {
        String source;
        try (var reader = Json.createReader(new StringReader(body == null ? "" : body))) {
            JsonObject request = reader.readObject();
            source = request.get("source") instanceof JsonString name
                    ? QueryParameters.text("source", name.getString(), QueryParameters.MAX_SOURCE) : null;
            if (source == null) {
                throw new IllegalArgumentException("source is required: the source whose search keys to back-fill");
            }
            if (!searchKeys.has(source)) {
                throw new IllegalArgumentException("source '" + source + "' has no search keys: set HOOKSTILE_SOURCES_"
                        + source.toUpperCase(java.util.Locale.ROOT).replace('-', '_') + "_SEARCH_KEYS first");
            }
            return Response.accepted(View.of(backfill.start(source, Instant.now()))).build();
        } catch (JsonException | IllegalStateException e) {
            return Problems.of(400, "invalid-request", "Invalid request", "the body must be a JSON object such as"
                    + " {\"source\": \"pay\"}", INSTANCE).build();
        } catch (IllegalArgumentException e) {
            return Problems.of(400, "invalid-request", "Invalid request", e.getMessage(), INSTANCE).build();
        }
    }

    /** Every back-fill. */
    public record Listing(List<View> backfills) {
    }

    /**
     * A source's back-fill: {@code running} or {@code completed}, of the events received before {@code until};
     * {@code scanned} of them read, oldest first, up to {@code position}; {@code written} keys written.
     */
    @JsonbPropertyOrder({"source", "status", "until", "position", "scanned", "written", "startedAt", "updatedAt"})
    public record View(String source, String status, String until, String position, long scanned, long written,
                       String startedAt, String updatedAt) {

        static View of(KeyBackfill.Progress progress) {
            return new View(progress.source(), progress.status(), instant(progress.until()),
                    instant(progress.after()), progress.scanned(), progress.written(), instant(progress.startedAt()),
                    instant(progress.updatedAt()));
        }

        private static String instant(OffsetDateTime time) {
            return time == null ? null : time.toInstant().toString();
        }
    }
}
