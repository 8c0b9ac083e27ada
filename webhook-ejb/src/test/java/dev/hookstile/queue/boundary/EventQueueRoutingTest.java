package dev.hookstile.queue.boundary;

import dev.hookstile.platform.boundary.ContainerResources;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.HashSet;

import static org.junit.jupiter.api.Assertions.assertEquals;

class EventQueueRoutingTest {

    @Test
    void anEventWithoutAnOrderKeyGoesToTheEventQueue() {
        assertEquals(ContainerResources.QUEUE_NAME, EventQueue.queueOf(event("gh", null)));
    }

    @Test
    void everyEventOfAKeyGoesToTheSameOrderedQueueAndKeysSpreadOverAllOfThem() {
        var used = new HashSet<String>();
        for (int i = 0; i < 200; i++) {
            String queue = EventQueue.queueOf(event("billing", "cus_" + i));
            assertEquals(queue, EventQueue.queueOf(event("billing", "cus_" + i)));
            assertEquals(true, ContainerResources.ORDERED_QUEUE_NAMES.contains(queue), queue);
            used.add(queue);
        }
        assertEquals(ContainerResources.ORDERED_QUEUE_NAMES.size(), used.size());
    }

    private static EventMessage.Outgoing event(String source, String orderKey) {
        return new EventMessage.Outgoing(source, "stripe", "evt_1", "customer.updated", orderKey, Instant.EPOCH, "{}",
                new byte[0]);
    }
}
