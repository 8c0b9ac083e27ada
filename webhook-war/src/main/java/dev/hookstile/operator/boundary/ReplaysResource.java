package dev.hookstile.operator.boundary;

import dev.hookstile.platform.boundary.Problems;
import dev.hookstile.replay.boundary.ReplayFilter;
import dev.hookstile.replay.boundary.ReplayJobs;
import dev.hookstile.replay.entity.ReplayJob;
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
    ReplayJobs jobs;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response start(String body) {
        ReplayFilter filter;
        String requestId;
        try (var reader = JSON.createReader(new StringReader(body == null ? "" : body))) {
            JsonObject request = reader.readObject();
            requestId = text(request, "requestId");
            if (requestId == null) {
                throw new IllegalArgumentException("requestId is required: the same filter with the same requestId "
                        + "is the same job, so a retried call replays nothing twice");
            }
            requestId = QueryParameters.text("requestId", requestId, QueryParameters.MAX_TEXT);
            filter = new ReplayFilter(
                    QueryParameters.text("source", text(request, "source"), QueryParameters.MAX_SOURCE),
                    QueryParameters.status(text(request, "status")),
                    QueryParameters.text("type", text(request, "type"), QueryParameters.MAX_TEXT),
                    QueryParameters.instant("since", text(request, "since")),
                    QueryParameters.instant("until", text(request, "until")));
            if (filter.status() != null && filter.status().open()) {
                throw new IllegalArgumentException("status must be completed, ignored or dead: only a finished "
                        + "event can be replayed");
            }
        } catch (JsonException | IllegalStateException e) {
            return Problems.of(400, "invalid-request", "Invalid request", "the body must be a JSON object such as "
                    + "{\"source\":\"gh\",\"status\":\"dead\",\"since\":\"...\",\"until\":\"...\",\"requestId\":\"...\"}",
                    "/api/replays").build();
        } catch (IllegalArgumentException e) {
            return Problems.of(400, "invalid-request", "Invalid request", e.getMessage(), "/api/replays").build();
        }
        ReplayJob job = jobs.start(filter, requestId);
        return Response.accepted(Progress.of(job))
                .header("Location", "/api/replays/" + job.getId()).build();
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
