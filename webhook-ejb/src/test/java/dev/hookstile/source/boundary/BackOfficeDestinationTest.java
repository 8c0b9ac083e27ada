package dev.hookstile.source.boundary;

import dev.hookstile.source.BackOfficeDestination;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BackOfficeDestinationTest {

    @Test
    void aQueueOrATopicByName() {
        BackOfficeDestination queue = BackOfficeDestination.parse(" queue:billing.invoices ", List.of());
        assertFalse(queue.topic());
        assertEquals("billing.invoices", queue.name());
        assertTrue(BackOfficeDestination.parse("topic:events_all", List.of()).topic());
    }

    @Test
    void anythingElseIsRefused() {
        for (String value : List.of("billing", "queue:", "table:x", "queue:a b", "queue:a;b", "QUEUE:x")) {
            assertThrows(IllegalArgumentException.class, () -> BackOfficeDestination.parse(value, List.of()), value);
        }
    }

    @Test
    void publishesOnlyTheTypesItSelects() {
        BackOfficeDestination invoices = BackOfficeDestination.parse("queue:q", List.of("invoice.*", "customer.updated"));
        assertTrue(invoices.publishes("invoice.paid"));
        assertTrue(invoices.publishes("customer.updated"));
        assertFalse(invoices.publishes("customer.created"));
        assertTrue(BackOfficeDestination.parse("queue:q", List.of()).publishes("anything"));
    }
}
