package dev.hookstile.refusal.control;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SamplerTest {

    private static final long MINUTE = 60_000;
    private static final long T0 = 1_800_000_000_000L / MINUTE * MINUTE;

    @Test
    void keepsTheFirstFewOfEachSourceAndReasonPerMinuteAndCountsEveryOne() {
        var sampler = new Sampler(3);
        long kept = IntStream.range(0, 50).filter(i -> sampler.count("gh", "invalid-signature", T0 + i)).count();
        boolean otherReason = sampler.count("gh", "missing-signature", T0 + 100);
        boolean otherSource = sampler.count("_other", "invalid-signature", T0 + 100);
        boolean nextMinute = sampler.count("gh", "invalid-signature", T0 + MINUTE);

        assertEquals(3, kept);
        assertTrue(otherReason, "another reason has examples of its own");
        assertTrue(otherSource, "another source has examples of its own");
        assertTrue(nextMinute, "the next minute keeps examples again");
        assertEquals(List.of(new Sampler.Count(T0, "gh", "invalid-signature", 50)),
                sampler.drain(T0 + 200).stream().filter(c -> c.reason().equals("invalid-signature")
                        && c.source().equals("gh") && c.minuteStart() == T0).toList());
    }

    @Test
    void drainsWhatWasCountedSinceTheLastDrainAndKeepsTheCurrentMinutesSampling() {
        var sampler = new Sampler(2);
        sampler.count("gh", "invalid-signature", T0 + 1);
        sampler.count("gh", "invalid-signature", T0 + 2);
        assertEquals(List.of(new Sampler.Count(T0, "gh", "invalid-signature", 2)), sampler.drain(T0 + 3));
        assertEquals(List.of(), sampler.drain(T0 + 4), "nothing new");

        assertFalse(sampler.count("gh", "invalid-signature", T0 + 5), "the minute's examples are taken already");
        assertEquals(List.of(new Sampler.Count(T0, "gh", "invalid-signature", 1)), sampler.drain(T0 + MINUTE));
        assertTrue(sampler.count("gh", "invalid-signature", T0 + MINUTE + 1));
    }

    @Test
    void aFailedWriteIsDrainedAgain() {
        var sampler = new Sampler(2);
        sampler.count("gh", "invalid-signature", T0 + 1);
        List<Sampler.Count> failed = sampler.drain(T0 + MINUTE);
        sampler.restore(failed);
        sampler.count("gh", "invalid-signature", T0 + 2);

        assertEquals(List.of(new Sampler.Count(T0, "gh", "invalid-signature", 2)), sampler.drain(T0 + MINUTE + 1));
        assertEquals(List.of(), sampler.drain(T0 + MINUTE + 2));
    }
}
