package dev.hookstile.operator.boundary;

import dev.hookstile.outbox.boundary.Forwarding;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ForwardingsResourceTest {

    @Test
    void aForwardingShowsItsDestinationAsSchemeHostAndPortOnly() {
        var forwarding = new Forwarding(7, "fwd", "evt-1", "invoice.paid",
                "https://relay:pa55word@example.com:8443/in/t0ken?token=t0ken", "dead", 3, Instant.EPOCH, null, null,
                "HTTP 401", 0);

        ForwardingsResource.View view = ForwardingsResource.View.of(forwarding);

        assertEquals("https://example.com:8443", view.destination());
    }

    @Test
    void aNotificationShowsNoneOfItsIncomingWebhooksPathWhereItsSecretIs() {
        var notification = new Forwarding(8, "_notify", "events.dead:gh:permanent:1764072000", null,
                "https://hooks.slack.com/services/T0000/B0000/XXXXs3cretXXXX", "pending", 2, Instant.EPOCH,
                Instant.EPOCH, null, "HttpConnectTimeoutException: HTTP connect timed out to "
                + "https://hooks.slack.com/services/T0000/B0000/XXXXs3cretXXXX", 0);

        ForwardingsResource.View view = ForwardingsResource.View.of(notification);

        assertEquals("https://hooks.slack.com", view.destination());
        assertEquals("HttpConnectTimeoutException: HTTP connect timed out to https://hooks.slack.com",
                view.lastError());
    }
}
