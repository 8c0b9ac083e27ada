package dev.hookstile.notify.control;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NoticeTest {

    private static final Instant WINDOW = Instant.parse("2026-11-25T10:00:00Z");

    private static Notice dead(String source, String failure, Instant window, long count, String sample) {
        return new Notice(Notice.Type.EVENTS_DEAD, source, failure, count, window.plusSeconds(1),
                window.plusSeconds(59), window, sample);
    }

    @Test
    void theIdFollowsFromTypeSourceFailureAndWindowAloneNotFromWhatItCounts() {
        Notice one = dead("gh", "permanent", WINDOW, 200, "boom");
        Notice recomputed = dead("gh", "permanent", WINDOW, 199, "another error");

        assertEquals("events.dead:gh:permanent:" + WINDOW.getEpochSecond(), one.id());
        assertEquals(one.id(), recomputed.id(), "whoever computes it, however late: one notification");
        assertNotEquals(one.id(), dead("gh", "transient", WINDOW, 200, null).id());
        assertNotEquals(one.id(), dead("pay", "permanent", WINDOW, 200, null).id());
        assertNotEquals(one.id(), dead("gh", "permanent", WINDOW.plusSeconds(60), 200, null).id());
        assertEquals("destination.breaker_opened:fwd:" + WINDOW.getEpochSecond(), new Notice(
                Notice.Type.BREAKER_OPENED, "fwd", null, 1, WINDOW, WINDOW, WINDOW, null).id());
    }

    @Test
    void theSampleIsOneBoundedLineOfData() {
        String sample = dead("gh", "permanent", WINDOW, 1, "a\nb\r\u2028c" + "x".repeat(500)).sample();

        assertEquals(Notice.MAX_SAMPLE, sample.length());
        assertTrue(sample.startsWith("a b c"), sample);
        assertTrue(sample.endsWith("..."), sample);
        assertFalse(sample.chars().anyMatch(Character::isISOControl), sample);
        assertNull(dead("gh", "permanent", WINDOW, 1, null).sample());
    }

    @Test
    void eachTypeLinksToTheConsolesViewOfItsSource() {
        assertEquals("dead?source=gh", dead("gh", "permanent", WINDOW, 1, null).view());
        assertEquals("forwardings?source=fwd", new Notice(Notice.Type.BREAKER_CLOSED, "fwd", null, 1, WINDOW, WINDOW,
                WINDOW, null).view());
        assertEquals("overview?source=_unreadable", new Notice(Notice.Type.PROCESSING_BEHIND, "_unreadable", null,
                1, WINDOW, WINDOW, WINDOW, null).view());
    }

    @Test
    void windowsAreAlignedOnTheEpochAndCloseAfterTheGrace() {
        Duration minute = Duration.ofSeconds(60);

        assertEquals(WINDOW, Window.of(WINDOW.plusMillis(59_999), minute).start());
        assertEquals(WINDOW.plusSeconds(60), Window.of(WINDOW.plusSeconds(60), minute).start());
        assertEquals(WINDOW.plusSeconds(60), Window.of(WINDOW, minute).end());
        assertEquals(Instant.parse("2026-11-25T10:00:05Z"),
                Window.of(Instant.parse("2026-11-25T10:00:07.5Z"), Duration.ofSeconds(5)).start());
        assertEquals(WINDOW, Window.closedUntil(WINDOW.plusSeconds(89), minute, Duration.ofSeconds(30)),
                "10:00-10:01 closes at 10:01:30");
        assertEquals(WINDOW.plusSeconds(60), Window.closedUntil(WINDOW.plusSeconds(90), minute,
                Duration.ofSeconds(30)));
        assertEquals(Instant.parse("1969-12-31T23:59:00Z"),
                Window.of(Instant.parse("1969-12-31T23:59:30Z"), minute).start(), "floored, not truncated");
    }
}
