package dev.hookstile.events.entity;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EventStatusTest {

    @Test
    void theOpenStatusesInSqlAreExactlyTheOpenOnes() {
        assertEquals(columns(true), inSql(EventStatus.OPEN_IN_SQL));
    }

    @Test
    void theReplayableStatusesInSqlAreExactlyTheReplayableOnes() {
        assertEquals(Arrays.stream(EventStatus.values()).filter(EventStatus::replayable).map(EventStatus::column)
                .collect(Collectors.toSet()), inSql(EventStatus.REPLAYABLE_IN_SQL));
    }

    @Test
    void theExpirableStatusesInSqlAreExactlyTheExpirableOnes() {
        assertEquals(Arrays.stream(EventStatus.values()).filter(EventStatus::expirable).map(EventStatus::column)
                .collect(Collectors.toSet()), inSql(EventStatus.EXPIRABLE_IN_SQL));
    }

    @Test
    void onlyEventsThatFinishedWellExpire() {
        for (EventStatus status : EventStatus.values()) {
            assertEquals(status == EventStatus.COMPLETED || status == EventStatus.IGNORED, status.expirable(),
                    status.toString());
        }
    }

    @Test
    void everyStatusIsEitherOpenOrReplayable() {
        for (EventStatus status : EventStatus.values()) {
            assertTrue(status.open() ^ status.replayable(), status + " is open or finished, never both or neither");
        }
    }

    @Test
    void aCompletedEventIsNeverOpenAgain() {
        assertFalse(EventStatus.COMPLETED.open());
        assertFalse(EventStatus.DEAD.open());
    }

    @Test
    void theColumnReadsBackAsTheStatus() {
        for (EventStatus status : EventStatus.values()) {
            assertEquals(status, EventStatus.of(status.column()));
        }
    }

    private static Set<String> columns(boolean open) {
        return Arrays.stream(EventStatus.values()).filter(s -> s.open() == open).map(EventStatus::column)
                .collect(Collectors.toSet());
    }

    private static Set<String> inSql(String list) {
        return Arrays.stream(list.split(",")).map(String::trim).map(s -> s.substring(1, s.length() - 1))
                .collect(Collectors.toSet());
    }
}
