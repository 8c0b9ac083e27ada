package dev.hookstile.operator.boundary;

import dev.hookstile.web.boundary.Problems;
import dev.hookstile.events.boundary.EventQuery;
import dev.hookstile.replay.boundary.ReplayFilter;
import dev.hookstile.replay.boundary.ReplayJobs;
import dev.hookstile.replay.boundary.ReplayPreview;
import dev.hookstile.replay.boundary.ReplayRefused;
import dev.hookstile.replay.entity.ReplayJob;
import dev.hookstile.source.JsonMatch;
import dev.hookstile.search.boundary.SearchKeys;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import jakarta.json.spi.JsonProvider;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.io.StringReader;

/**
 * Bulk replays: {@code POST /api/replays} with a filter and a request id starts a job (or returns the job an
 * identical earlier call started), {@code GET /api/replays/{id}} shows its progress.
 */
@OperatorOnly
@Path("api/replays")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
public class ReplaysResource {

    private static final JsonProvider JSON = JsonProvider.provider();

    @Inject
    SearchKeys searchKeys;

    @Inject
    ReplayJobs jobs;

    @Inject
    ReplayPreview previews;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response start(String body) {
        ReplayFilter filter;
        String requestId;
        try {
            JsonObject request = read(body);
            requestId = text(request, "requestId");
            if (requestId == null) {
                throw new IllegalArgumentException("requestId is required: the same filter with the same requestId "
                        + "is the same job, so a retried call replays nothing twice");
            }
            requestId = QueryParameters.text("requestId", requestId, QueryParameters.MAX_TEXT);
            filter = filter(request);
        } catch (JsonException | IllegalStateException e) {
            return notAFilter("/api/replays");
        } catch (IllegalArgumentException e) {
            return Problems.of(400, "invalid-request", "Invalid request", e.getMessage(), "/api/replays").build();
        }
        ReplayJob job;
        try {
            job = jobs.start(filter, requestId);
        } catch (ReplayRefused refused) {
            var problem = refused.problem();
            return Problems.of(problem.status(), problem.slug(), problem.title(), refused.getMessage(), "/api/replays")
                    .build();
        }
        return Response.accepted(Progress.of(job))
                .header("Location", "/api/replays/" + job.getId()).build();
    }

    /**
     * {@code POST /api/replays/preview}: how many events {@code POST /api/replays} with this filter would select now,
     * counted up to {@value ReplayPreview#LIMIT} (a count equal to it means at least that many); with a body or header
     * condition, among how many of the events the other filters select.
     */
    @POST
    @Path("preview")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response preview(String body) {
        ReplayFilter filter;
        try {
            filter = filter(read(body));
        } catch (JsonException | IllegalStateException e) {
            return notAFilter("/api/replays/preview");
        } catch (IllegalArgumentException e) {
            return Problems.of(400, "invalid-request", "Invalid request", e.getMessage(), "/api/replays/preview")
                    .build();
        }
        ReplayPreview.Count count = previews.count(filter);
        return Response.ok(new Preview(count.matched(), ReplayPreview.LIMIT, count.selected(), count.checked()))
                .build();
    }

    /** {@code POST /api/replays/{id}/cancel}: stops a running job before its next page of events. */
    @POST
    @Path("{id}/cancel")
    public Response cancel(@PathParam("id") String id) {
        String instance = "/api/replays/" + id + "/cancel";
        if (!id.matches("[0-9a-f-]{36}")) {
            return Problems.of(404, "replay-not-found", "Replay not found", "no replay job has this id", instance)
                    .build();
        }
        return switch (jobs.cancel(id)) {
            case CANCELLED -> Response.ok(Progress.of(jobs.find(id).orElseThrow())).build();
            case FINISHED -> Problems.of(409, "replay-finished", "Replay finished",
                    "the job is no longer running; nothing was cancelled", instance).build();
            case NOT_FOUND -> Problems.of(404, "replay-not-found", "Replay not found", "no replay job " + id,
                    instance).build();
        };
    }

    /**
     * The answer of a preview: how many events the replay would select, counted up to {@code countLimit}; with a body
     * or header condition, {@code matched} of the {@code checked} newest of the {@code selected} events the other
     * filters select (when fewer than all were checked, at least that many).
     */
    @JsonbPropertyOrder({"matched", "countLimit", "selected", "checked"})
    public record Preview(long matched, int countLimit, Long selected, Long checked) {
    }

    private static JsonObject read(String body) {
        try (var reader = JSON.createReader(new StringReader(body == null ? "" : body))) {
            return reader.readObject();
        }
    }

    /** The filter fields of a replay request, checked: a malformed value is a 400 naming it. */
    private ReplayFilter filter(JsonObject request) {
        JsonValue prefix = request.get("typePrefix");
        if (prefix != null && prefix != JsonValue.NULL && prefix != JsonValue.TRUE && prefix != JsonValue.FALSE) {
            throw new IllegalArgumentException("typePrefix must be true or false");
        }
        String type = QueryParameters.text("type", text(request, "type"), QueryParameters.MAX_TEXT);
        ReplayFilter filter = new ReplayFilter(
                QueryParameters.text("source", text(request, "source"), QueryParameters.MAX_SOURCE),
                QueryParameters.status(text(request, "status")), type,
                QueryParameters.instant("since", text(request, "since")),
                QueryParameters.instant("until", text(request, "until")),
                prefix == JsonValue.TRUE && type != null,
                error(request), key(request), searchKey(request), match(request),
                QueryParameters.header(text(request, "header")));
        if (filter.status() != null && filter.status().open()) {
            throw new IllegalArgumentException("status must be completed, ignored or dead: only a finished "
                    + "event can be replayed");
        }
        return filter;
    }

    /** {@code key}: a search key and its value, {@code customer:cus_9}, as {@code GET /api/events?key=} takes it. */
    private static String key(JsonObject request) {
        String key = text(request, "key");
        return key == null || key.isEmpty() ? null : key;
    }

    private EventQuery.Key searchKey(JsonObject request) {
        String key = key(request);
        return QueryParameters.key(searchKeys, key);
    }

    /** {@code match}: a JSON object the body must contain, given as one or as its text (as {@code ?match=} takes it). */
    private static JsonMatch match(JsonObject request) {
        JsonValue value = request.get("match");
        if (value instanceof JsonObject fragment) {
            return JsonMatch.parse(fragment.toString());
        }
        return QueryParameters.match(text(request, "match"));
    }

    /** As long as the column: a dead group's error is matched exactly. */
    private static final int MAX_ERROR = 4000;

    /**
     * The last error to match, exactly as {@code /api/dead-groups} showed it: not trimmed, and line breaks allowed
     * (an error message may hold them); only what no stored error can hold is refused.
     */
    private static String error(JsonObject request) {
        JsonValue value = request.get("error");
        if (value == null || value == JsonValue.NULL) {
            return null;
        }
        if (value.getValueType() != JsonValue.ValueType.STRING) {
            throw new IllegalArgumentException("error must be a string");
        }
        String error = request.getString("error");
        if (error.isEmpty() || error.length() > MAX_ERROR || error.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("error must be 1 to " + MAX_ERROR + " characters, as a dead group shows it");
        }
        return error;
    }

    private static Response notAFilter(String instance) {
        return Problems.of(400, "invalid-request", "Invalid request", "the body must be a JSON object such as "
                + "{\"source\":\"gh\",\"status\":\"dead\",\"since\":\"...\",\"until\":\"...\",\"requestId\":\"...\"}",
                instance).build();
    }

    @GET
    @Path("{id}")
    public Response progress(@PathParam("id") String id) {
        if (!id.matches("[0-9a-f-]{36}")) {
            return Problems.of(404, "replay-not-found", "Replay not found", "no replay job has this id",
                    "/api/replays").build();
        }
        return jobs.find(id)
                .map(job -> Response.ok(Progress.of(job)).build())
                .orElseGet(() -> Problems.of(404, "replay-not-found", "Replay not found",
                        "no replay job " + id, "/api/replays/" + id).build());
    }

    /** A bulk replay's progress: the filter it was started with, how many events matched, how many are queued. */
    @JsonbPropertyOrder({"id", "status", "matched", "queued", "createdAt", "filter", "finishedAt", "error"})
    public record Progress(String id, String status, int matched, int queued, String createdAt, JsonObject filter,
                           String finishedAt, String error) {

        static Progress of(ReplayJob job) {
            JsonObject filter;
            try (var reader = JSON.createReader(new StringReader(job.getFilter()))) {
                filter = reader.readObject();
            }
            return new Progress(job.getId(), job.getStatus().column(), job.getMatched(), job.getQueued(),
                    job.getCreatedAt().toInstant().toString(), filter,
                    job.getFinishedAt() == null ? null : job.getFinishedAt().toInstant().toString(), job.getError());
        }
    }

    private static String text(JsonObject request, String name) {
        JsonValue value = request.get(name);
        if (value == null || value == JsonValue.NULL) {
            return null;
        }
        if (value.getValueType() != JsonValue.ValueType.STRING) {
            throw new IllegalArgumentException(name + " must be a string");
        }
        String text = request.getString(name).trim();
        return text.isEmpty() ? null : text;
    }
}
