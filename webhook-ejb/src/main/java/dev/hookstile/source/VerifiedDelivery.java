package dev.hookstile.source;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a provider vouches for after checking the signature: the events the delivery carries (one for most
 * providers, one per message or status for a Meta batch), or an answer to give the sender at once without queueing
 * anything (Slack's {@code url_verification}).
 *
 * @param events  the events to queue, each deduplicated on its own id; empty when {@code answer} is set
 * @param headers the headers to keep with the events, signatures redacted
 * @param answer  the reply for a verified delivery that carries no event, else {@code null}
 */
public record VerifiedDelivery(List<EventIdentity> events, Map<String, String> headers, Answer answer) {

    /**
     * @param id   the sender's event id (the dedup key with the source)
     * @param type the event type, {@code ""} if the sender gives none
     */
    public record EventIdentity(String id, String type) {

        public EventIdentity {
            Objects.requireNonNull(id, "id");
            type = type == null ? "" : type;
        }
    }

    public VerifiedDelivery {
        events = List.copyOf(events);
        headers = Map.copyOf(headers);
        if (events.isEmpty() == (answer == null)) {
            throw new IllegalArgumentException("a verified delivery carries events or an answer, not both or neither");
        }
    }

    public static VerifiedDelivery event(String id, String type, Map<String, String> headers) {
        return new VerifiedDelivery(List.of(new EventIdentity(id, type)), headers, null);
    }

    public static VerifiedDelivery answered(Answer answer) {
        return new VerifiedDelivery(List.of(), Map.of(), answer);
    }

    /** The first event's id; most deliveries carry exactly one. */
    public String eventId() {
        return events.isEmpty() ? null : events.get(0).id();
    }

    /** The first event's type. */
    public String type() {
        return events.isEmpty() ? null : events.get(0).type();
    }
}
