package dev.hookstile.events.boundary;

import org.junit.jupiter.api.Test;

import java.time.OffsetDateTime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class EventQueryTest {

    @Test
    void cursorRoundTripsThePositionIncludingSeparatorsInTheEventId() {
        var position = new EventQuery.Position(OffsetDateTime.parse("2026-11-23T08:00:00.123456Z"), "gh",
                "id with\nnewline and /slash");

        assertEquals(position, EventQuery.Position.decode(position.encode()));
    }

    @Test
    void cursorIsUrlSafe() {
        var position = new EventQuery.Position(OffsetDateTime.parse("2026-11-23T08:00:00Z"), "pay", "evt_???>>>");

        assertEquals(position.encode(), java.net.URLEncoder.encode(position.encode(), java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void garbageCursorIsRefusedWithAClearMessage() {
        var error = assertThrows(IllegalArgumentException.class, () -> EventQuery.Position.decode("not-a-cursor!"));
        assertEquals("'after' is not a cursor this API returned", error.getMessage());
    }

    @Test
    void limitMustBeBetweenOneAndFiveHundred() {
        assertThrows(IllegalArgumentException.class, () -> new EventQuery(null, null, null, null, null, null, 0));
        assertThrows(IllegalArgumentException.class, () -> new EventQuery(null, null, null, null, null, null, 501));
        assertEquals(500, new EventQuery(null, null, null, null, null, null, 500).limit());
    }
}
