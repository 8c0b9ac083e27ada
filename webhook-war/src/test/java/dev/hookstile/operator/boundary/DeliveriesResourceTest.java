package dev.hookstile.operator.boundary;

import dev.hookstile.outbox.boundary.Forwarding;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;

class DeliveriesResourceTest {

    @Test
    void aDeliveryShowsItsDestinationWithoutCredentialsOrQueryString() {
        var delivery = new Forwarding(7, "fwd", "evt-1", "invoice.paid",
                "https://relay:pa55word@example.com/in?token=t0ken", "dead", 3, Instant.EPOCH, null, null,
                "HTTP 401", 0);

        DeliveriesResource.View view = DeliveriesResource.View.of(delivery);

        assertEquals("https://***@example.com/in?***", view.destination());
    }
}
