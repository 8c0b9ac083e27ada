package dev.hookstile.operator.boundary;

import dev.hookstile.api.Text;
import dev.hookstile.platform.Redacted;
import dev.hookstile.events.boundary.ContentSearch;
import dev.hookstile.events.boundary.EventQuery;
import dev.hookstile.source.JsonMatch;
import dev.hookstile.search.boundary.SearchKeys;
import dev.hookstile.events.boundary.EventSummary;
import dev.hookstile.events.boundary.RecordedEvents;
import dev.hookstile.events.entity.EventAttempt;
import dev.hookstile.events.entity.EventStatus;
import dev.hookstile.events.entity.ReceivedEvent;
import dev.hookstile.web.boundary.Problems;
import dev.hookstile.queue.boundary.HandOffFailure;
import dev.hookstile.replay.boundary.Replays;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import jakarta.json.spi.JsonProvider;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Base64;
import java.util.List;

/**
 * The recorded events for operators: a filtered, keyset-paginated list; one event with payload, headers and every
 * attempt; and replaying one. Under {@code /api}, so only callers with the operator token reach it.
 */
@OperatorOnly
@Path("api/events")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
public class EventsResource {

    private static final JsonProvider JSON = JsonProvider.provider();

    @Inject
    RecordedEvents events;

    @Inject
    Replays replays;

    @Inject
    SearchKeys searchKeys;

    @Inject
    ContentSearch contentSearch;

    @GET
    public Response list(@QueryParam("source") String source, @QueryParam("status") String status,
                         @QueryParam("type") String type, @QueryParam("since") String since,
                         @QueryParam("until") String until, @QueryParam("limit") String limit,
                         @QueryParam("after") String after, @QueryParam("eventId") String eventId,
                         @QueryParam("key") String key, @QueryParam("match") String match,
                         @QueryParam("header") String header) {
        EventQuery query;
        JsonMatch fragment;
        ContentSearch.Header sent;
        try {
            fragment = QueryParameters.match(match);
            sent = QueryParameters.header(header);
            // type is a prefix (type=invoice. lists invoice.paid and invoice.created); eventId is exact, found by
            // primary key with or without a source; key is a search key and its value (customer:cus_9).
            query = new EventQuery(QueryParameters.text("source", source, QueryParameters.MAX_SOURCE),
                    QueryParameters.status(status), QueryParameters.text("type", type, QueryParameters.MAX_TEXT),
                    QueryParameters.instant("since", since), QueryParameters.instant("until", until),
                    position(after), QueryParameters.limit(limit, 50, EventQuery.MAX_LIMIT), false, null,
                    QueryParameters.eventId(eventId), QueryParameters.key(searchKeys, key));
        } catch (IllegalArgumentException e) {
            return QueryParameters.invalid(e, "/api/events");
        }
        if (fragment != null || sent != null) {
            ContentSearch.Page found = contentSearch.page(query, fragment, sent);
            return Response.ok(new Page(found.events().stream().map(Summary::of).toList(),
                    found.next() == null ? null : found.next().encode(), ScanView.of(found.scan()))).build();
        }
        RecordedEvents.Page page = events.page(query);
        String next = page.next() == null ? null : page.next().encode();
        return Response.ok(new Page(page.events().stream().map(Summary::of).toList(), next, null)).build();
    }

    @GET
    @Path("{source}/{eventId}")
    public Response detail(@PathParam("source") String source, @PathParam("eventId") String eventId) {
        if (!Text.withoutControls(source) || !Text.withoutControls(eventId)) {
            return notFound(source, eventId);
        }
        return events.find(source, eventId)
                .map(event -> Response.ok(Detail.of(event, events.history(source, eventId), Instant.now())).build())
                .orElseGet(() -> notFound(source, eventId));
    }

    @POST
    @Path("{source}/{eventId}/replay")
    public Response replay(@PathParam("source") String source, @PathParam("eventId") String eventId,
                           @HeaderParam("Idempotency-Key") String idempotencyKey) {
        String instance = "/api/events/" + source + "/" + eventId + "/replay";
        if (!Text.withoutControls(source) || !Text.withoutControls(eventId)) {
            return notFound(source, eventId);
        }
        if (idempotencyKey != null && (idempotencyKey.isEmpty() || idempotencyKey.length() > Text.MAX_STORED
                || !Text.withoutControls(idempotencyKey))) {
            return Problems.of(400, "invalid-idempotency-key", "Invalid idempotency key",
                    "Idempotency-Key must be 1 to " + Text.MAX_STORED + " printable characters", instance).build();
        }
        try {
            return switch (replays.replay(source, eventId, idempotencyKey)) {
                // The same answer for a retried request as for the first: the replay it asked for is under way.
                case QUEUED, QUEUED_BEFORE -> Response.accepted(new Queued("queued", source, eventId)).build();
                case KEY_REUSED -> Problems.of(422, "idempotency-key-reused", "Idempotency key reused",
                        "this Idempotency-Key was used to replay another event", instance).build();
                case ALREADY_QUEUED -> Problems.of(409, "already-queued", "Already queued",
                        "the event is queued or being retried already; replay it once it is completed or dead",
                        instance).build();
                case NOT_FOUND -> notFound(source, eventId);
                case NOT_REPLAYABLE -> Problems.of(409, "not-replayable", "Not replayable",
                        "this records a message that could not be read as events; its bytes are kept to be read, "
                                + "there is nothing to process", instance).build();
            };
        } catch (HandOffFailure e) {
            return Problems.brokerUnavailable("the event could not be queued again; nothing changed, retry later",
                    instance);
        }
    }

    /**
     * A page of {@code GET /api/events}; {@code next} is the cursor of the following page, absent on the last;
     * {@code scan} how far a search of the bodies looked.
     */
    @JsonbPropertyOrder({"events", "next", "scan"})
    public record Page(List<Summary> events, String next, ScanView scan) {
    }

    /**
     * How far a search of bodies or headers looked: the newest {@code limit} events of the window after the cursor at
     * most, stopping when the page is full; {@code reached} when a short page looked at that many, back to
     * {@code oldest} ({@code next} then searches older ones).
     */
    @JsonbPropertyOrder({"limit", "reached", "oldest"})
    public record ScanView(int limit, boolean reached, String oldest) {

        static ScanView of(ContentSearch.Scan scan) {
            return new ScanView(scan.limit(), scan.reached(), instant(scan.oldest()));
        }
    }

    /** One event in a list. Times are ISO-8601 instants; absent values are left out. */
    @JsonbPropertyOrder({"source", "eventId", "provider", "type", "status", "attempts", "receivedAt", "processedAt",
            "lastError"})
    public record Summary(String source, String eventId, String provider, String type, String status, int attempts,
                          String receivedAt, String processedAt, String lastError) {

        static Summary of(EventSummary event) {
            return new Summary(event.source(), event.eventId(), event.provider(), event.type(),
                    event.status().column(), event.attempts(), instant(event.receivedAt()),
                    instant(event.processedAt()), event.lastError());
        }
    }

    /**
     * One event whole: its summary's fields, what an operator may do with it ({@code replayable}: a replay would queue
     * it now; {@code finished}: no delivery or try will change it any more, so a page following it can stop), the
     * retained headers (a secret-looking one's value withheld, {@link Redacted#secretHeader}), the payload (base64
     * always, as text too when it is UTF-8) and every attempt.
     */
    @JsonbPropertyOrder({"source", "eventId", "provider", "type", "status", "attempts", "receivedAt", "processedAt",
            "lastError", "updatedAt", "finished", "replayable", "headers", "payloadBase64", "payload", "history"})
    public record Detail(String source, String eventId, String provider, String type, String status, int attempts,
                         String receivedAt, String processedAt, String lastError, String updatedAt, boolean finished,
                         boolean replayable, JsonObject headers, String payloadBase64, String payload,
                         List<Attempt> history) {

        static Detail of(ReceivedEvent event, List<EventAttempt> history, Instant now) {
            byte[] body = event.getPayload();
            EventStatus status = event.getStatus();
            Instant updatedAt = event.getUpdatedAt() == null ? null : event.getUpdatedAt().toInstant();
            return new Detail(event.getSource(), event.getEventId(), event.getProvider(), event.getType(),
                    status.column(), event.getAttempts(), instant(event.getReceivedAt()),
                    instant(event.getProcessedAt()), event.getLastError(), instant(event.getUpdatedAt()),
                    !status.open(), Replays.replayable(event.getSource(), status, updatedAt, now),
                    shownHeaders(event.getHeaders()), Base64.getEncoder().encodeToString(body), utf8OrNull(body),
                    history.stream().map(Attempt::of).toList());
        }

        /**
         * The retained headers as an operator may see them: the server's one rule decides which values are withheld
         * (the console shows what it is told), stored signatures already are.
         */
        static JsonObject shownHeaders(String stored) {
            JsonObject headers;
            try (var reader = JSON.createReader(new StringReader(stored))) {
                headers = reader.readObject();
            }
            JsonObjectBuilder shown = JSON.createObjectBuilder();
            headers.forEach((name, value) -> shown.add(name,
                    Redacted.secretHeader(name) ? JSON.createValue(Redacted.HEADER_VALUE) : value));
            return shown.build();
        }
    }

    /**
     * One line of an event's history; {@code durationMillis}, how long the try took from its start to its outcome,
     * is absent for lines recorded before it was kept and for failures no try of ours had (the broker giving up).
     */
    @JsonbPropertyOrder({"attempt", "outcome", "at", "durationMillis", "failure", "error"})
    public record Attempt(int attempt, String outcome, String at, Integer durationMillis, String failure,
                          String error) {

        static Attempt of(EventAttempt attempt) {
            return new Attempt(attempt.getAttempt(), attempt.getOutcome(), instant(attempt.getAt()),
                    attempt.getDurationMillis(), attempt.getFailure(), attempt.getError());
        }
    }

    /** The answer to a replay that queued the event (or had queued it, for a retried request with its key). */
    public record Queued(String status, String source, String eventId) {
    }

    private static String instant(OffsetDateTime time) {
        return time == null ? null : time.toInstant().toString();
    }

    private static String utf8OrNull(byte[] payload) {
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(payload)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }


    private static Response notFound(String source, String eventId) {
        return Problems.of(404, "event-not-found", "Event not found",
                "no event " + Text.shown(eventId, Text.MAX_STORED) + " is recorded for source " + Text.shown(source, Text.MAX_STORED),
                "/api/events/" + source + "/" + eventId).build();
    }

    /** A cursor that decodes to a position the database can compare, or {@code null}. */
    private static EventQuery.Position position(String after) {
        if (after == null || after.isBlank()) {
            return null;
        }
        EventQuery.Position position = EventQuery.Position.decode(after.trim());
        QueryParameters.text("after", position.source(), QueryParameters.MAX_SOURCE);
        QueryParameters.text("after", position.eventId(), QueryParameters.MAX_TEXT);
        QueryParameters.instant("after", position.receivedAt().toInstant().toString());
        return position;
    }
}
