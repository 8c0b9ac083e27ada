package dev.hookstile.ingest.boundary;

import dev.hookstile.source.Answer;

import java.util.List;

/**
 * The answer to a verified delivery: what became of each event it carried, or the reply its provider's protocol
 * requires instead (nothing queued).
 *
 * @param source the source name
 * @param events each event's outcome, in the order the delivery carried them; empty when {@code answer} is set
 * @param answer the provider's required reply (Slack's url_verification), else {@code null}
 */
public record Receipt(String source, List<Outcome> events, Answer answer) {

    public static final String ACCEPTED = "accepted";
    public static final String DUPLICATE = "duplicate";

    /**
     * @param eventId the event id the provider gave
     * @param status  {@code accepted} (queued durably) or {@code duplicate} (already recorded)
     */
    public record Outcome(String eventId, String status) {
    }

    public Receipt {
        events = List.copyOf(events);
    }

    /** {@code accepted} when any event was queued now (202), {@code duplicate} when all were known (200). */
    public String status() {
        return events.stream().anyMatch(e -> ACCEPTED.equals(e.status())) ? ACCEPTED : DUPLICATE;
    }

    public boolean duplicate() {
        return DUPLICATE.equals(status());
    }
}
