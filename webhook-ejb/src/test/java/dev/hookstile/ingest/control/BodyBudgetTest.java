package dev.hookstile.ingest.control;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BodyBudgetTest {

    @Test
    void grantsUpToTheLimitAndRefusesBeyondItAllOrNothing() {
        var budget = new BodyBudget(100);

        assertTrue(budget.take(60));
        assertFalse(budget.take(41), "41 more would pass 100");
        assertEquals(60, budget.used(), "a refusal takes nothing");
        assertTrue(budget.take(40));
        assertFalse(budget.take(1));

        budget.give(100);
        assertEquals(0, budget.used());
    }

    @Test
    void refusesAHugeRequestWithoutOverflowing() {
        var budget = new BodyBudget(Long.MAX_VALUE - 1);
        assertTrue(budget.take(Long.MAX_VALUE - 10));

        assertFalse(budget.take(Long.MAX_VALUE));
        assertEquals(Long.MAX_VALUE - 10, budget.used());
    }

    @Test
    void mustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> new BodyBudget(0));
    }

    @Test
    void aShareGivesBackEverythingItHoldsOnceWhenClosed() {
        var budget = new BodyBudget(1000);
        var share = budget.share();
        assertTrue(share.grow(100));
        assertTrue(share.grow(200));
        share.shrink(100);
        assertEquals(200, share.held());
        assertEquals(200, budget.used());

        share.close();
        share.close();

        assertEquals(0, budget.used(), "given back once, not twice");
        assertEquals(0, share.held());
    }

    @Test
    void aClosedShareTakesNothingMore() {
        var budget = new BodyBudget(1000);
        var share = budget.share();
        share.close();

        assertFalse(share.grow(10), "a reader racing the end of its request gets nothing");
        share.shrink(10);
        assertEquals(0, budget.used());
    }

    @Test
    void aShareIsRefusedWhenTheBudgetIsSpentByOthers() {
        var budget = new BodyBudget(1000);
        var others = budget.share();
        assertTrue(others.grow(900));
        var share = budget.share();

        assertFalse(share.grow(101));
        assertEquals(0, share.held());
        assertEquals(900, budget.used());
    }

    /** Readers, deadlines and request ends on many threads at once: never over the limit, nothing left over. */
    @Test
    void concurrentSharesNeverPassTheLimitAndLeaveNothingBehind() throws Exception {
        long limit = 64 * 1024;
        var budget = new BodyBudget(limit);
        var peak = new AtomicLong();
        var start = new CountDownLatch(1);
        var threads = new ArrayList<Thread>();
        for (int t = 0; t < 8; t++) {
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < 20_000; i++) {
                    var share = budget.share();
                    for (int grow = 1; grow <= 4; grow++) {
                        if (!share.grow(1024L * grow)) {
                            break;
                        }
                        peak.accumulateAndGet(budget.used(), Math::max);
                    }
                    share.shrink(1024);
                    // a deadline and the request's end both close it
                    Thread closer = i % 1000 == 0 ? new Thread(share::close) : null;
                    if (closer != null) {
                        closer.start();
                    }
                    share.close();
                    if (closer != null) {
                        try {
                            closer.join();
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                }
            });
            threads.add(thread);
            thread.start();
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join();
        }

        assertEquals(0, budget.used(), "every byte given back");
        assertTrue(peak.get() <= limit, "peak " + peak.get());
    }
}
