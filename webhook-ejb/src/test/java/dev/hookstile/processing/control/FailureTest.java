package dev.hookstile.processing.control;

import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class FailureTest {

    private static final Instant START = Instant.parse("2026-11-25T12:00:00.000400Z");

    @Test
    void aTrysDurationIsTheWholeMillisecondsFromItsStartToItsOutcome() {
        assertEquals(0, Failure.millisBetween(START, START));
        assertEquals(0, Failure.millisBetween(START, START.plusNanos(999_000)));
        assertEquals(1, Failure.millisBetween(START, START.plusNanos(1_000_000)));
        assertEquals(1_400, Failure.millisBetween(START, START.plusMillis(1_400)));
    }

    @Test
    void aWallClockSteppedBackGivesZeroNotANegativeDurationAndAnEndlessTryIsCapped() {
        assertEquals(0, Failure.millisBetween(START, START.minusSeconds(3)));
        assertEquals(Integer.MAX_VALUE, Failure.millisBetween(START, START.plusSeconds(30L * 24 * 3600)));
    }

    @Test
    void aFailedTryTakesFromItsStartToTheFailuresTimeAndAFailureOfNoTryHasNoDuration() {
        var failure = new Failure(Failure.Kind.TRANSIENT, "TransientFailure: busy", START.plusMillis(12));

        assertNull(failure.durationMillis());
        assertEquals(12, failure.ofTryStartedAt(START).durationMillis());
        assertEquals(failure.at(), failure.ofTryStartedAt(START).at());
    }
}
