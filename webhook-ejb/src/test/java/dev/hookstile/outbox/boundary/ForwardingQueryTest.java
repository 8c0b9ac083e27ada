package dev.hookstile.outbox.boundary;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ForwardingQueryTest {

    @Test
    void oneEventsDeliveriesAreAskedForWithItsSourceWhoseIndexFindsThem() {
        var query = new ForwardingQuery("gh", "evt-1", null, null, null, null, null, 50);

        assertEquals("evt-1", query.eventId());
        var refused = assertThrows(IllegalArgumentException.class,
                () -> new ForwardingQuery(null, "evt-1", null, null, null, null, null, 50));
        assertEquals("eventId needs source: an event is known by its source and id", refused.getMessage());
    }
}
