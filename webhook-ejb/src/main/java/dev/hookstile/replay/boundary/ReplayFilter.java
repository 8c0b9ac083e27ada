package dev.hookstile.replay.boundary;

import dev.hookstile.events.entity.EventStatus;
import jakarta.json.Json;

import java.time.Instant;

/**
 * Which recorded events a bulk replay queues again: all of one status ({@code dead} unless said otherwise),
 * optionally of one source and type, received in {@code [since, until)}.
 */
public record ReplayFilter(String source, EventStatus status, String type, Instant since, Instant until) {

    public ReplayFilter {
        status = status == null ? EventStatus.DEAD : status;
    }

    /** A canonical form: the same filter always gives the same text, for the job's idempotency key. */
    public String toJson() {
        var json = Json.createObjectBuilder().add("status", status.column());
        if (source != null) {
            json.add("source", source);
        }
        if (type != null) {
            json.add("type", type);
        }
        if (since != null) {
            json.add("since", since.toString());
        }
        if (until != null) {
            json.add("until", until.toString());
        }
        return json.build().toString();
    }
}
