package dev.hookstile.ingest.control;

import dev.hookstile.dedup.control.DuplicateLookup;
import dev.hookstile.provider.control.Delivery;
import dev.hookstile.provider.control.RejectedDelivery;
import dev.hookstile.provider.control.Rejection;
import dev.hookstile.provider.control.VerifiedDelivery;
import dev.hookstile.source.control.Source;
import dev.hookstile.source.control.Sources;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.io.InputStream;
import java.time.Clock;
import java.time.Instant;

/**
 * Accepting one delivery, in the order the contract fixes: size limit, source, signature, event id, then the
 * durable hand-off, and only then an answer.
 */
@ApplicationScoped
public class Ingest {

    static final int MAX_EVENT_ID_LENGTH = 255;

    @Inject
    Sources sources;

    @Inject
    EventQueue queue;

    @Inject
    DuplicateLookup duplicates;

    @Inject
    @ConfigProperty(name = "hookstile.ingest.max-body-bytes", defaultValue = "1048576")
    int maxBodyBytes;

    private final Clock clock = Clock.systemUTC();

    public Receipt receive(String sourceName, Delivery.Headers headers, long declaredLength, InputStream body)
            throws RejectedDelivery, HandOffFailure {
        RequestBody.checkDeclaredLength(declaredLength, maxBodyBytes);
        Source source = sources.find(sourceName).orElseThrow(() -> new RejectedDelivery(Rejection.UNKNOWN_SOURCE,
                "no source named '" + printable(sourceName) + "' is configured"));
        byte[] payload = RequestBody.read(body, declaredLength, maxBodyBytes);
        Instant receivedAt = clock.instant();
        VerifiedDelivery verified = source.provider().verify(new Delivery(headers, payload, receivedAt), source);
        requireValidEventId(verified.eventId());
        if (duplicates.isRecorded(source.name(), verified.eventId())) {
            return new Receipt(Receipt.DUPLICATE, source.name(), verified.eventId());
        }
        queue.send(source.name(), source.provider().name(), verified.eventId(), verified.type(), receivedAt,
                verified.headers(), payload);
        return new Receipt(Receipt.ACCEPTED, source.name(), verified.eventId());
    }

    static void requireValidEventId(String eventId) throws RejectedDelivery {
        if (eventId.length() > MAX_EVENT_ID_LENGTH) {
            throw new RejectedDelivery(Rejection.INVALID_EVENT_ID,
                    "the event id is longer than " + MAX_EVENT_ID_LENGTH + " characters");
        }
        for (int i = 0; i < eventId.length(); i++) {
            char c = eventId.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                throw new RejectedDelivery(Rejection.INVALID_EVENT_ID, "the event id contains a control character");
            }
        }
    }

    private static String printable(String text) {
        String cut = text.length() > 64 ? text.substring(0, 64) + "..." : text;
        return cut.replaceAll("\\p{Cntrl}", "?");
    }
}
