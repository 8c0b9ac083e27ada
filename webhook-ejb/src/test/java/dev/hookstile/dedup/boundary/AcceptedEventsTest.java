package dev.hookstile.dedup.boundary;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AcceptedEventsTest {

    @Test
    void repeatOfAStoredEventIsKnown() {
        var events = new AcceptedEvents(10);
        var first = assertInstanceOf(AcceptedEvents.First.class, events.admit("gh", "a"));
        first.stored();
        assertInstanceOf(AcceptedEvents.Known.class, events.admit("gh", "a"));
        assertInstanceOf(AcceptedEvents.First.class, events.admit("other", "a"), "sources are separate");
    }

    @Test
    void concurrentCopyWaitsForTheFirstSendAndIsKnownOnlyOnceItIsStored() throws Exception {
        var events = new AcceptedEvents(10);
        var first = assertInstanceOf(AcceptedEvents.First.class, events.admit("gh", "a"));
        var copy = CompletableFuture.supplyAsync(() -> events.admit("gh", "a"));
        Thread.sleep(100);
        assertFalse(copy.isDone(), "a copy must not be answered before the first one is stored");
        first.stored();
        assertInstanceOf(AcceptedEvents.Known.class, copy.get(2, TimeUnit.SECONDS));
    }

    @Test
    void copyWaitingOnAFailedSendBecomesTheSender() throws Exception {
        var events = new AcceptedEvents(10);
        var first = assertInstanceOf(AcceptedEvents.First.class, events.admit("gh", "a"));
        var started = new CountDownLatch(1);
        var copy = CompletableFuture.supplyAsync(() -> {
            started.countDown();
            return events.admit("gh", "a");
        });
        started.await();
        Thread.sleep(50);
        first.failed();
        var retry = assertInstanceOf(AcceptedEvents.First.class, copy.get(2, TimeUnit.SECONDS));
        retry.stored();
        assertInstanceOf(AcceptedEvents.Known.class, events.admit("gh", "a"));
    }

    @Test
    void failedSendIsForgotten() {
        var events = new AcceptedEvents(10);
        ((AcceptedEvents.First) events.admit("gh", "a")).failed();
        assertInstanceOf(AcceptedEvents.First.class, events.admit("gh", "a"));
    }

    @Test
    void oldestEventsAreForgottenBeyondCapacity() {
        var events = new AcceptedEvents(3);
        for (String id : new String[] {"a", "b", "c", "d", "e"}) {
            ((AcceptedEvents.First) events.admit("gh", id)).stored();
        }
        assertEquals(3, events.size());
        assertInstanceOf(AcceptedEvents.First.class, events.admit("gh", "a"), "forgotten: the database decides");
        assertInstanceOf(AcceptedEvents.Known.class, events.admit("gh", "e"));
    }

    @Test
    void capacityZeroRemembersNothing() {
        var events = new AcceptedEvents(0);
        ((AcceptedEvents.First) events.admit("gh", "a")).stored();
        assertTrue(events.admit("gh", "a") instanceof AcceptedEvents.First);
    }
}
