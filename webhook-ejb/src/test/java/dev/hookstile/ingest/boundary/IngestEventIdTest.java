package dev.hookstile.ingest.boundary;

import dev.hookstile.source.RejectedDelivery;
import dev.hookstile.source.Rejection;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class IngestEventIdTest {

    private static Rejection rejection(String eventId) {
        return assertThrows(RejectedDelivery.class, () -> Ingest.requireValidEventId(eventId)).reason();
    }

    @Test
    void acceptsTypicalProviderIds() {
        assertDoesNotThrow(() -> Ingest.requireValidEventId("evt_1NG8Du2eZvKYlo2CUI79vXWy"));
        assertDoesNotThrow(() -> Ingest.requireValidEventId("72d3162e-cc78-11e3-81ab-4c9367dc0958"));
        assertDoesNotThrow(() -> Ingest.requireValidEventId("msg_p5jXN8AQM9LWM0D4loKWxJek"));
    }

    @Test
    void acceptsIdWithSpacesAndNonAsciiText() {
        assertDoesNotThrow(() -> Ingest.requireValidEventId("order 42 \u00e9\u20ac"));
    }

    @Test
    void acceptsIdOf255Characters() {
        assertDoesNotThrow(() -> Ingest.requireValidEventId("a".repeat(255)));
    }

    @Test
    void rejectsIdOf256Characters() {
        assertEquals(Rejection.INVALID_EVENT_ID, rejection("a".repeat(256)));
    }

    @Test
    void rejectsIdWithNewline() {
        assertEquals(Rejection.INVALID_EVENT_ID, rejection("evt_1\nInjected: header"));
    }

    @Test
    void rejectsIdWithCarriageReturn() {
        assertEquals(Rejection.INVALID_EVENT_ID, rejection("evt_1\r"));
    }

    @Test
    void rejectsIdWithNulCharacter() {
        assertEquals(Rejection.INVALID_EVENT_ID, rejection("evt\u00001"));
    }

    @Test
    void rejectsIdWithTab() {
        assertEquals(Rejection.INVALID_EVENT_ID, rejection("\tevt_1"));
    }

    @Test
    void rejectsIdWithDeleteCharacter() {
        assertEquals(Rejection.INVALID_EVENT_ID, rejection("evt_1\u007f"));
    }

    @Test
    void eventTypeFollowsTheSameRulesUnderItsOwnReason() {
        assertDoesNotThrow(() -> Ingest.requireValidEventType(""));
        assertDoesNotThrow(() -> Ingest.requireValidEventType("t".repeat(255)));
        assertEquals(Rejection.INVALID_EVENT_TYPE, assertThrows(RejectedDelivery.class,
                () -> Ingest.requireValidEventType("t".repeat(256))).reason());
        assertEquals(Rejection.INVALID_EVENT_TYPE, assertThrows(RejectedDelivery.class,
                () -> Ingest.requireValidEventType("invoice\u0000paid")).reason());
    }
}
