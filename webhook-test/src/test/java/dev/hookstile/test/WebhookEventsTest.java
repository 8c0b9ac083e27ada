package dev.hookstile.test;

import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WebhookEventsTest {

    @Test
    void anEventCarriesWhatTheTestSetAndDefaultsForTheRest() {
        var event = WebhookEvents.stripe("invoice.paid").payload("{\"id\":\"evt_9\"}").build();

        assertEquals("stripe", event.provider());
        assertEquals("stripe", event.source());
        assertEquals("invoice.paid", event.type());
        assertEquals(1, event.attempt());
        assertEquals("evt_9", event.json().getString("id"));
        assertTrue(event.eventId().startsWith("evt_"));
        assertFalse(event.olderThanLastProcessed());
    }

    @Test
    void everyEventHasATraceContextAsHookstileGivesOneAndATestMaySetIt() {
        var traced = WebhookEvents.stripe("invoice.paid").build();
        var given = WebhookEvents.stripe("invoice.paid")
                .traceParent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01").build();

        assertTrue(traced.traceParent().matches("00-[0-9a-f]{32}-[0-9a-f]{16}-01"), traced.traceParent());
        assertEquals("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", given.traceParent());
    }

    @Test
    void everyEventGetsAnIdOfItsOwn() {
        assertNotEquals(WebhookEvents.github("push").build().eventId(), WebhookEvents.github("push").build().eventId());
    }

    @Test
    void aRetryAReplayAndAnOrderedEventAreExpressible() {
        var event = WebhookEvents.of("shopify", "orders/paid").source("shop").eventId("w-1").attempt(3)
                .receivedAt(Instant.EPOCH).header("X-Shopify-Shop-Domain", "a.myshopify.com")
                .orderKey("order-7", true).build();

        assertEquals("shop", event.source());
        assertEquals("w-1", event.eventId());
        assertEquals(3, event.attempt());
        assertEquals(Instant.EPOCH, event.receivedAt());
        assertEquals("a.myshopify.com", event.header("X-Shopify-Shop-Domain"));
        assertEquals("order-7", event.orderKey());
        assertTrue(event.olderThanLastProcessed());
        assertThrows(IllegalArgumentException.class, () -> WebhookEvents.github("push").attempt(0));
    }
}
