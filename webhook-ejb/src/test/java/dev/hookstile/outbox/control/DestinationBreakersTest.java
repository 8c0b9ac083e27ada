package dev.hookstile.outbox.control;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DestinationBreakersTest {

    private static final String DOWN = "https://down.example/hooks";
    private static final String UP = "https://up.example/hooks";
    private final Instant t0 = Instant.parse("2026-11-24T12:00:00Z");
    private final DestinationBreakers breakers = new DestinationBreakers(3, Duration.ofSeconds(30));

    @Test
    void opensAfterTheThresholdOfFailuresInARowForThatDestinationOnly() {
        assertFalse(breakers.failed(DOWN, t0));
        assertFalse(breakers.failed(DOWN, t0));
        assertNull(breakers.openUntil(DOWN, t0), "two failures: still tried");

        assertTrue(breakers.failed(DOWN, t0));
        assertEquals(t0.plusSeconds(30), breakers.openUntil(DOWN, t0.plusSeconds(1)));
        assertNull(breakers.openUntil(UP, t0.plusSeconds(1)), "another destination is not affected");
    }

    @Test
    void anAnswerInBetweenStartsTheCountAgain() {
        breakers.failed(DOWN, t0);
        breakers.failed(DOWN, t0);
        breakers.answered(DOWN);
        assertFalse(breakers.failed(DOWN, t0));
        assertNull(breakers.openUntil(DOWN, t0));
    }

    @Test
    void afterTheOpenTimeOneTrialDecides() {
        for (int i = 0; i < 3; i++) {
            breakers.failed(DOWN, t0);
        }
        Instant later = t0.plusSeconds(30);
        assertNull(breakers.openUntil(DOWN, later), "half-open: one request may try");

        assertTrue(breakers.failed(DOWN, later), "the trial failed: open again at once");
        assertEquals(later.plusSeconds(30), breakers.openUntil(DOWN, later));

        breakers.answered(DOWN);
        assertNull(breakers.openUntil(DOWN, later), "the trial succeeded: closed");
    }

    @Test
    void operatorsSeeClosedThenOpenThenHalfOpenOnceTheOpenTimeIsOverAndClosedAfterAnAnswer() {
        breakers.failed(DOWN, t0);
        breakers.failed(DOWN, t0);
        assertEquals(DestinationBreakers.Status.CLOSED, breakers.status(DOWN, t0), "failing, still tried");

        breakers.failed(DOWN, t0);
        assertEquals(DestinationBreakers.Status.OPEN, breakers.status(DOWN, t0.plusSeconds(29)));
        assertEquals(DestinationBreakers.Status.HALF_OPEN, breakers.status(DOWN, t0.plusSeconds(30)));

        breakers.answered(DOWN);
        assertEquals(DestinationBreakers.Status.CLOSED, breakers.status(DOWN, t0.plusSeconds(31)));
        assertEquals(DestinationBreakers.Status.CLOSED, breakers.status(UP, t0));
    }

    @Test
    void anAnswerReportsAClosingOnlyOfABreakerThatHadOpened() {
        breakers.failed(DOWN, t0);
        assertFalse(breakers.answered(DOWN), "failures below the threshold opened nothing, so nothing closes");
        assertFalse(breakers.answered(UP), "never failed");

        for (int i = 0; i < 3; i++) {
            breakers.failed(DOWN, t0);
        }
        assertTrue(breakers.answered(DOWN), "the trial after the open time answered: closed");
        assertFalse(breakers.answered(DOWN), "closed once");
    }
}
