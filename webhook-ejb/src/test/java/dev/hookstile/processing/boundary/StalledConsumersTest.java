package dev.hookstile.processing.boundary;

import dev.hookstile.processing.control.ConsumerActivity;
import dev.hookstile.queue.boundary.WaitingMessages;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StalledConsumersTest {

    private static final String QUEUE = "hookstile.events";
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final long WINDOW = 120 * SECOND;

    private long lastDelivery;
    private String first;
    private final List<String> reconnected = new ArrayList<>();
    private StalledConsumers consumers;

    @BeforeEach
    void consumersWithAFakeQueue() {
        consumers = new StalledConsumers();
        consumers.windowNanos = WINDOW;
        consumers.activity = new ConsumerActivity() {
            @Override
            public long lastDeliveryNanos(String queue) {
                return lastDelivery;
            }

            @Override
            public boolean reconnect(String queue, String reason) {
                reconnected.add(queue);
                return true;
            }
        };
        consumers.waiting = new WaitingMessages() {
            @Override
            public Optional<String> first(String queueName) {
                return Optional.ofNullable(first);
            }
        };
    }

    @Test
    void anIdleConsumerWhoseQueueKeepsTheSameFirstMessageIsReconnectedOncePerWindow() {
        first = "ID:1";
        consumers.look(QUEUE, WINDOW);
        assertEquals(List.of(), reconnected, "one look proves nothing: the message may have just arrived");

        consumers.look(QUEUE, WINDOW + 30 * SECOND);
        assertEquals(List.of(QUEUE), reconnected);

        consumers.look(QUEUE, WINDOW + 60 * SECOND);
        assertEquals(1, reconnected.size(), "not again within the window");
        consumers.look(QUEUE, 2 * WINDOW + 30 * SECOND);
        assertEquals(2, reconnected.size(), "again a window later while the stall lasts");
    }

    @Test
    void aConsumerWaitingOutBackOffIsNotStalled() {
        first = "ID:1";
        lastDelivery = 100 * SECOND;
        consumers.look(QUEUE, WINDOW);
        consumers.look(QUEUE, WINDOW + 30 * SECOND);
        consumers.look(QUEUE, WINDOW + 60 * SECOND);

        assertEquals(List.of(), reconnected, "a delivery within the window: back-off, not a stall");
    }

    @Test
    void aQueueWhoseFirstMessageMovesIsNotStalled() {
        for (int look = 0; look < 5; look++) {
            first = "ID:" + look;
            consumers.look(QUEUE, WINDOW + look * 30 * SECOND);
        }

        assertEquals(List.of(), reconnected, "another instance is consuming it");
    }

    @Test
    void anEmptyQueueIsNotStalled() {
        consumers.look(QUEUE, WINDOW);
        consumers.look(QUEUE, 2 * WINDOW);

        assertEquals(List.of(), reconnected);
    }

    @Test
    void livenessGoesDownOnlyWhenThreeReconnectsDidNotHelp() {
        first = "ID:1";
        long now = WINDOW;
        consumers.look(QUEUE, now);
        for (int reconnect = 1; reconnect <= StalledConsumers.RECONNECTS_BEFORE_DOWN; reconnect++) {
            assertEquals(List.of(), consumers.stalled(now), "after " + (reconnect - 1) + " reconnects");
            now += WINDOW;
            consumers.look(QUEUE, now);
        }
        assertEquals(StalledConsumers.RECONNECTS_BEFORE_DOWN, reconnected.size());
        assertEquals(List.of(QUEUE), consumers.stalled(now));

        lastDelivery = now + SECOND;
        assertTrue(consumers.stalled(now + 2 * SECOND).isEmpty(), "a delivery ends it at once");
    }
}
