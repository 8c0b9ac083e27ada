package dev.hookstile.operator.boundary;

import dev.hookstile.events.entity.EventStatus;
import dev.hookstile.outbox.boundary.Forwarding;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.util.Arrays;
import java.util.List;

/**
 * {@code GET /api/statuses}: the statuses an event and a forwarding can have, in the order of their life, each with
 * what it allows, from the code that enforces it ({@link EventStatus}, {@link Forwarding}). The console builds its
 * status filters and its bulk replay offer from this answer, so no rule is written twice.
 */
@OperatorOnly
@Path("api/statuses")
@ApplicationScoped
public class StatusesResource {

    static final Vocabulary VOCABULARY = new Vocabulary(
            Arrays.stream(EventStatus.values())
                    .map(s -> new EventStatusView(s.column(), !s.open(), s.replayable())).toList(),
            Forwarding.STATUSES.stream()
                    .map(s -> new ForwardingStatusView(s, Forwarding.replayable(s))).toList());

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Vocabulary list() {
        return VOCABULARY;
    }

    /** {@code GET /api/statuses}. */
    @JsonbPropertyOrder({"events", "forwardings"})
    public record Vocabulary(List<EventStatusView> events, List<ForwardingStatusView> forwardings) {
    }

    /**
     * An event's status: {@code finished} when no delivery or try changes it any more; {@code replayable} when a
     * replay, one or in bulk, starts from it.
     */
    @JsonbPropertyOrder({"name", "finished", "replayable"})
    public record EventStatusView(String name, boolean finished, boolean replayable) {
    }

    /** A forwarding's status: {@code replayable} when an operator's replay sends it again. */
    @JsonbPropertyOrder({"name", "replayable"})
    public record ForwardingStatusView(String name, boolean replayable) {
    }
}
