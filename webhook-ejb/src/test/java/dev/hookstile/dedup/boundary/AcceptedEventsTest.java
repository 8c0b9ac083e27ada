package dev.hookstile.dedup.boundary;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
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

    /** A copy admitted on a thread of its own, and its answer once it has one. */
    private static CompletableFuture<AcceptedEvents.Admission> admitConcurrently(AcceptedEvents events,
                                                                                 Thread[] thread) {
        var answer = new CompletableFuture<AcceptedEvents.Admission>();
        thread[0] = new Thread(() -> answer.complete(events.admit("gh", "a")), "copy");
        thread[0].start();
        return answer;
    }

    /**
     * Until the thread waits with a timeout, which in {@code admit} only the wait for the first copy's send does: a
     * copy that was answered at once has ended instead, and fails this.
     */
    private static void awaitWaiting(Thread thread) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (thread.getState() != Thread.State.TIMED_WAITING) {
            assertTrue(thread.isAlive(), "the copy was answered without waiting for the first one");
            assertTrue(System.nanoTime() < deadline, "the copy never waited: " + thread.getState());
            Thread.onSpinWait();
        }
    }

    @Test
    void concurrentCopyWaitsForTheFirstSendAndIsKnownOnlyOnceItIsStored() throws Exception {
        var events = new AcceptedEvents(10);
        var first = assertInstanceOf(AcceptedEvents.First.class, events.admit("gh", "a"));
        var thread = new Thread[1];
        var copy = admitConcurrently(events, thread);

        awaitWaiting(thread[0]);
        assertFalse(copy.isDone(), "a copy must not be answered before the first one is stored");
        first.stored();
        assertInstanceOf(AcceptedEvents.Known.class, copy.get(2, TimeUnit.SECONDS));
    }

    @Test
    void copyWaitingOnAFailedSendBecomesTheSender() throws Exception {
        var events = new AcceptedEvents(10);
        var first = assertInstanceOf(AcceptedEvents.First.class, events.admit("gh", "a"));
        var thread = new Thread[1];
        var copy = admitConcurrently(events, thread);

        awaitWaiting(thread[0]);
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
