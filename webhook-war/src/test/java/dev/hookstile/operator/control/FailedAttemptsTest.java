package dev.hookstile.operator.control;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FailedAttemptsTest {

    private long now = 1_000_000_000_000L;
    private final FailedAttempts attempts = new FailedAttempts(() -> now, 100);

    @Test
    void theFirstTenFailuresCostNothingTheEleventhOneSecond() {
        for (int i = 1; i <= FailedAttempts.FREE_FAILURES; i++) {
            assertFalse(attempts.beforeCheck("203.0.113.5").delayed(), "attempt " + i);
            assertFalse(attempts.failed("203.0.113.5").delayed(), "failure " + i);
        }
        assertFalse(attempts.beforeCheck("203.0.113.5").delayed());

        FailedAttempts.Verdict eleventh = attempts.failed("203.0.113.5");

        assertTrue(eleventh.delayed());
        assertEquals(1, eleventh.retryAfterSeconds());
        assertEquals(1, attempts.beforeCheck("203.0.113.5").retryAfterSeconds(), "refused before any token check");
    }

    @Test
    void theDelayDoublesWithEachFurtherFailureUpToFiveMinutes() {
        fail("203.0.113.5", FailedAttempts.FREE_FAILURES);
        long[] expected = {1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300, 300};
        for (long seconds : expected) {
            FailedAttempts.Verdict verdict = attempts.failed("203.0.113.5");
            assertEquals(seconds, verdict.retryAfterSeconds());
            advance(seconds * 1000 - 1);
            assertTrue(attempts.beforeCheck("203.0.113.5").delayed(), "still waiting just before " + seconds + " s");
            advance(1);
            assertFalse(attempts.beforeCheck("203.0.113.5").delayed(), "free to try after " + seconds + " s");
        }
        assertEquals(TimeUnit.MINUTES.toNanos(5), FailedAttempts.delayAfter(Integer.MAX_VALUE));
    }

    @Test
    void waitingRefusalsDoNotLengthenTheWait() {
        fail("203.0.113.5", FailedAttempts.FREE_FAILURES + 1);
        for (int i = 0; i < 100; i++) {
            assertEquals(1, attempts.beforeCheck("203.0.113.5").retryAfterSeconds());
        }
        advance(1000);
        assertFalse(attempts.beforeCheck("203.0.113.5").delayed());
    }

    @Test
    void onlyTheFailingClientWaits() {
        fail("203.0.113.5", FailedAttempts.FREE_FAILURES + 1);

        assertTrue(attempts.beforeCheck("203.0.113.5").delayed());
        assertFalse(attempts.beforeCheck("198.51.100.7").delayed());
    }

    @Test
    void theRightTokenForgivesAndSoDoFifteenQuietMinutes() {
        fail("203.0.113.5", FailedAttempts.FREE_FAILURES);
        attempts.succeeded("203.0.113.5");
        assertFalse(attempts.failed("203.0.113.5").delayed(), "counting starts again after the right token");

        fail("198.51.100.7", FailedAttempts.FREE_FAILURES);
        advance(TimeUnit.MINUTES.toMillis(15));
        assertFalse(attempts.failed("198.51.100.7").delayed(), "counting starts again after 15 quiet minutes");
    }

    @Test
    void memoryIsBoundedWhateverTheNumberOfAddresses() {
        for (int i = 0; i < 10_000; i++) {
            attempts.failed("2001:db8::" + Integer.toHexString(i));
        }

        assertEquals(100, attempts.remembered());
    }

    @Test
    void atMostOneLinePerClientPerMinuteAndTheNextSaysHowManyWereLeftOut() {
        assertTrue(attempts.failed("203.0.113.5").log());
        for (int i = 0; i < 5; i++) {
            advance(1000);
            assertFalse(attempts.failed("203.0.113.5").log());
        }
        assertTrue(attempts.failed("198.51.100.7").log(), "another client has its own minute");
        advance(55_000);

        FailedAttempts.Verdict next = attempts.failed("203.0.113.5");

        assertTrue(next.log());
        assertEquals(5, next.suppressedBefore());
        assertFalse(attempts.beforeCheck("203.0.113.5").log(), "a waiting refusal is rate-limited as well");
    }

    @Test
    void theRightTokenInBetweenDoesNotBuyMoreLogLines() {
        assertTrue(attempts.failed("203.0.113.5").log());
        attempts.succeeded("203.0.113.5");
        advance(1000);

        assertFalse(attempts.failed("203.0.113.5").log());
    }

    @Test
    void manyAddressesCannotFloodTheLog() {
        int lines = 0;
        for (int i = 0; i < 1000; i++) {
            if (attempts.failed("2001:db8::" + Integer.toHexString(i)).log()) {
                lines++;
            }
        }
        assertEquals(30, lines, "at most 30 lines a minute in all");
        advance(60_000);
        assertTrue(attempts.failed("2001:db8::ffff").log(), "a new minute, new lines");
    }

    private void fail(String address, int times) {
        for (int i = 0; i < times; i++) {
            attempts.failed(address);
        }
    }

    private void advance(long millis) {
        now += TimeUnit.MILLISECONDS.toNanos(millis);
    }
}
