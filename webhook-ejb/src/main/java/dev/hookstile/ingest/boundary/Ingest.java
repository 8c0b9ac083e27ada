package dev.hookstile.ingest.boundary;

import dev.hookstile.api.Text;
import dev.hookstile.dedup.boundary.AcceptedEvents;
import dev.hookstile.ingest.control.BodyBudget;
import dev.hookstile.ingest.Outcome;
import dev.hookstile.ingest.control.RequestBody;
import dev.hookstile.ingest.control.HandOff;
import dev.hookstile.source.Answer;
import dev.hookstile.source.Delivery;
import dev.hookstile.source.RejectedDelivery;
import dev.hookstile.source.Rejection;
import dev.hookstile.source.VerifiedDelivery;
import dev.hookstile.source.VerifiedDelivery.EventIdentity;
import dev.hookstile.queue.boundary.EventMessage;
import dev.hookstile.queue.boundary.HandOffFailure;
import dev.hookstile.source.Source;
import dev.hookstile.source.boundary.Sources;
import dev.hookstile.trace.TraceParent;
import dev.hookstile.trace.TraceSpan;
import dev.hookstile.trace.boundary.Tracing;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.io.InputStream;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

/**
 * Accepting one delivery, in the order the contract fixes: size limit, source, signature, event id, then the
 * durable hand-off, and only then an answer.
 */
@ApplicationScoped
public class Ingest {

    static final int MAX_EVENT_ID_LENGTH = Text.MAX_STORED;

    @Inject
    Sources sources;

    @Inject
    HandOff handOff;

    @Inject
    DeliveryMetrics metrics;

    @Inject
    BodyLimits limits;

    @Inject
    Tracing tracing;

    /** Events this instance remembers having queued, answered {@code duplicate} without the database. */
    @Inject
    @ConfigProperty(name = "hookstile.ingest.recent-events", defaultValue = "100000")
    int recentEvents;

    /**
     * The most events one delivery may carry (Meta batches; 1,000 is Meta's own documented batch limit). Each event
     * is a row of its own carrying the whole body (the queue's messages carry a shared body once), so a signed body
     * of tiny items must not fan out into tens of thousands of them.
     */
    @Inject
    @ConfigProperty(name = "hookstile.ingest.max-events-per-delivery", defaultValue = "1000")
    int maxEventsPerDelivery;

    private final Clock clock = Clock.systemUTC();
    private AcceptedEvents accepted;

    @PostConstruct
    void init() {
        accepted = new AcceptedEvents(recentEvents);
    }

    public Receipt receive(String sourceName, Delivery.Headers headers, String url, long declaredLength,
                           InputStream body) throws RejectedDelivery, HandOffFailure {
        TraceSpan span = tracing.receive(headers.get(TraceParent.HEADER), sourceName);
        try {
            Receipt receipt = receive(sourceName, headers, url, declaredLength, body, span);
            if (span.span() != null) {
                span.set("hookstile.outcome", receipt.answer() != null ? "answered" : receipt.outcome().label());
            }
            return receipt;
        } catch (RejectedDelivery refused) {
            span.failed(refused.reason().slug());
            throw refused;
        } catch (HandOffFailure | RuntimeException failed) {
            span.failed("hand-off failed");
            throw failed;
        } finally {
            span.end();
        }
    }

    private Receipt receive(String sourceName, Delivery.Headers headers, String url, long declaredLength,
                            InputStream body, TraceSpan span) throws RejectedDelivery, HandOffFailure {
        int maxBodyBytes = limits.maxBytes();
        RequestBody.Deadline deadline = RequestBody.Deadline.in(limits.timeoutSeconds());
        RequestBody.checkDeclaredLength(declaredLength, maxBodyBytes);
        Source source = source(sourceName);
        BodyBudget budget = limits.budget();
        byte[] payload = RequestBody.read(body, declaredLength, maxBodyBytes, deadline, budget);
        try {
            return accept(source, headers, url, payload, span);
        } catch (RejectedDelivery refused) {
            throw refused.withBody(payload);
        } finally {
            // However the request ends (accepted, refused, the broker failing), its bytes leave the budget.
            budget.give(payload.length);
        }
    }

    private Receipt accept(Source source, Delivery.Headers headers, String url, byte[] payload, TraceSpan span)
            throws RejectedDelivery, HandOffFailure {
        Instant receivedAt = clock.instant();
        VerifiedDelivery verified = source.provider().verify(new Delivery(headers, payload, receivedAt, url), source);
        if (verified.answer() != null) {
            return new Receipt(source.name(), List.of(), verified.answer());
        }
        if (verified.events().size() > maxEventsPerDelivery) {
            throw new RejectedDelivery(Rejection.TOO_MANY_EVENTS, "the delivery carries " + verified.events().size()
                    + " events; at most " + maxEventsPerDelivery + " are accepted in one");
        }
        for (EventIdentity event : verified.events()) {
            requireValidEventId(event.id());
            requireValidEventType(event.type());
        }
        Receipt receipt = new Receipt(source.name(), handOff(source, verified, payload, receivedAt, span), null);
        metrics.received(receipt);
        return receipt;
    }

    /**
     * Queues the delivery's events unless known: remembered as queued by this instance (or being queued by a
     * concurrent copy, which this one waits for), else recorded in the database (the hand-off asks it). Handed off
     * together, so they usually travel in one message; if the broker fails, the sender gets a 503 and retries the
     * whole delivery, and events already queued are deduplicated by their claim.
     */
    private List<Receipt.Event> handOff(Source source, VerifiedDelivery verified, byte[] payload,
                                          Instant receivedAt, TraceSpan received) throws HandOffFailure {
        List<EventIdentity> events = verified.events();
        var admissions = new ArrayList<AcceptedEvents.Admission>(events.size());
        var outgoing = new ArrayList<EventMessage.Outgoing>(events.size());
        String headersJson = null;
        TraceSpan span = null;
        String orderKey = source.orderKeyOf(payload);
        var ids = events.size() > 1 ? new HashSet<String>() : null;
        for (EventIdentity event : events) {
            // An id repeated within the delivery is the first one's duplicate; admitting it too would wait for the
            // first's hand-off, which waits for this very request.
            AcceptedEvents.Admission admission = ids != null && !ids.add(event.id())
                    ? AcceptedEvents.KNOWN : accepted.admit(source.name(), event.id());
            admissions.add(admission);
            if (admission instanceof AcceptedEvents.First) {
                if (headersJson == null) {
                    headersJson = EventMessage.headersJson(verified.headers());
                    span = tracing.handOff(received, source.name());
                }
                outgoing.add(new EventMessage.Outgoing(source.name(), source.provider().name(), event.id(),
                        event.type(), orderKey, receivedAt, headersJson, payload, ids != null, span.traceParent()));
            }
        }
        List<Outcome> results = List.of();
        try {
            if (!outgoing.isEmpty()) {
                results = handOff.send(outgoing);
            }
        } finally {
            if (span != null) {
                span.set("messaging.batch.message_count", outgoing.size());
                (results.isEmpty() ? span.failed("not stored by the broker") : span).end();
            }
            // Stored when the hand-off answered at all (queued, or recorded before); otherwise the next copy of
            // each event sends itself.
            for (AcceptedEvents.Admission admission : admissions) {
                if (admission instanceof AcceptedEvents.First first) {
                    if (results.isEmpty()) {
                        first.failed();
                    } else {
                        first.stored();
                    }
                }
            }
        }
        var outcomes = new ArrayList<Receipt.Event>(events.size());
        int sent = 0;
        for (int i = 0; i < events.size(); i++) {
            Outcome outcome = admissions.get(i) instanceof AcceptedEvents.First ? results.get(sent++) : Outcome.DUPLICATE;
            outcomes.add(new Receipt.Event(events.get(i).id(), outcome));
        }
        return outcomes;
    }

    /** A {@code GET} to a source's endpoint: the provider's subscription handshake, if it has one. */
    public Answer handshake(String sourceName, Map<String, String> query) throws RejectedDelivery {
        Source source = source(sourceName);
        return source.provider().handshake(query, source);
    }

    private Source source(String name) throws RejectedDelivery {
        return sources.find(name).orElseThrow(() -> new RejectedDelivery(Rejection.UNKNOWN_SOURCE,
                "no source named '" + Text.shown(name, 64) + "' is configured"));
    }

    static void requireValidEventId(String eventId) throws RejectedDelivery {
        String problem = problemWith(eventId);
        if (problem != null) {
            throw new RejectedDelivery(Rejection.INVALID_EVENT_ID, "the event id " + problem);
        }
    }

    /** The type is stored and matched like the id: a value the database cannot hold must not get past ingest. */
    static void requireValidEventType(String type) throws RejectedDelivery {
        String problem = problemWith(type);
        if (problem != null) {
            throw new RejectedDelivery(Rejection.INVALID_EVENT_TYPE, "the event type " + problem);
        }
    }

    private static String problemWith(String value) {
        if (value.length() > MAX_EVENT_ID_LENGTH) {
            return "is longer than " + MAX_EVENT_ID_LENGTH + " characters";
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                return "contains a control character";
            }
        }
        return null;
    }

}
