package dev.hookstile.ingest.boundary;

import dev.hookstile.ingest.Outcome;
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
public record Receipt(String source, List<Event> events, Answer answer) {

    /**
     * @param eventId the event id the provider gave
     * @param outcome {@link Outcome#ACCEPTED} (queued durably) or {@link Outcome#DUPLICATE} (already recorded)
     */
    public record Event(String eventId, Outcome outcome) {
    }

    public Receipt {
        events = List.copyOf(events);
    }

    /** {@link Outcome#ACCEPTED} when any event was queued now (202), {@link Outcome#DUPLICATE} when all were known (200). */
    public Outcome outcome() {
        return events.stream().anyMatch(e -> e.outcome() == Outcome.ACCEPTED) ? Outcome.ACCEPTED : Outcome.DUPLICATE;
    }
}
