package dev.hookstile.events.boundary;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DeadGroupsTest {

    private static final Instant T0 = Instant.parse("2026-11-25T12:00:00Z");

    @Test
    void deadEventsAreGroupedBySourceTypeAndErrorLargestFirstWithTheirNewest() {
        List<DeadGroups.Dead> newestFirst = List.of(
                dead("gh", "push", "refused", 9), dead("gh", "push", "refused", 7), dead("gh", "push", null, 6),
                dead("pay", "push", "refused", 5), dead("gh", "push", "refused", 3), dead("gh", "issues", "refused", 1));

        DeadGroups.Result result = DeadGroups.group(newestFirst, 100, 10);

        assertFalse(result.sampled());
        assertEquals(List.of(new DeadGroups.Group("gh", "push", "refused", 3, T0.plusSeconds(9)),
                new DeadGroups.Group("gh", "push", null, 1, T0.plusSeconds(6)),
                new DeadGroups.Group("pay", "push", "refused", 1, T0.plusSeconds(5)),
                new DeadGroups.Group("gh", "issues", "refused", 1, T0.plusSeconds(1))), result.groups());
    }

    @Test
    void onlyTheNewestOfTheSampleAreGroupedAndTheAnswerSaysSo() {
        List<DeadGroups.Dead> newestFirst = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            newestFirst.add(dead("gh", "push", "new", 100 - i));
        }
        newestFirst.add(dead("gh", "push", "old", 1));

        DeadGroups.Result result = DeadGroups.group(newestFirst, 5, 10);

        assertTrue(result.sampled());
        assertEquals(List.of(new DeadGroups.Group("gh", "push", "new", 5, T0.plusSeconds(100))), result.groups());
    }

    @Test
    void atMostTheLargestGroupsAreShown() {
        List<DeadGroups.Dead> newestFirst = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            for (int j = 0; j <= i; j++) {
                newestFirst.add(dead("gh", "type-" + i, "error", 1000 - newestFirst.size()));
            }
        }

        DeadGroups.Result result = DeadGroups.group(newestFirst, 10_000, 3);

        assertEquals(List.of("type-29", "type-28", "type-27"),
                result.groups().stream().map(DeadGroups.Group::type).toList());
    }

    private static DeadGroups.Dead dead(String source, String type, String error, int second) {
        return new DeadGroups.Dead(source, type, error, T0.plusSeconds(second));
    }
}
