package dev.hookstile.test;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import java.util.List;

/**
 * An event as the operator API shows it ({@code GET /api/events/{source}/{eventId}}).
 *
 * @param status    {@code received}, {@code retrying}, {@code completed}, {@code ignored} or {@code dead}
 * @param attempts  every try so far, in-process retries and replays included
 * @param lastError the last failure's reason, {@code null} when none
 * @param history   each try's outcome in order ({@code completed}, {@code ignored}, {@code retrying}, {@code dead})
 * @param event     the whole answer: payload, headers (signatures redacted), each try's error and duration
 */
public record EventOutcome(String status, int attempts, String lastError, List<String> history, JsonObject event) {

    static EventOutcome of(JsonObject event) {
        List<String> history = event.containsKey("history")
                ? event.getJsonArray("history").getValuesAs(JsonObject.class).stream()
                        .map(line -> line.getString("outcome")).toList()
                : List.of();
        JsonValue error = event.get("lastError");
        return new EventOutcome(event.getString("status"), event.getInt("attempts"),
                error instanceof jakarta.json.JsonString text ? text.getString() : null, history, event);
    }

    @Override
    public String toString() {
        return status + " after " + attempts + (attempts == 1 ? " attempt" : " attempts") + " " + history
                + (lastError == null ? "" : ", last error: " + lastError);
    }
}
