package dev.hookstile.replay.boundary;

import dev.hookstile.events.entity.EventStatus;
import dev.hookstile.events.entity.ReceivedEvent;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the operator API tells the console an operator may replay: the rule of the replay's own statement. */
class ReplayableTest {

    private static final Instant NOW = Instant.parse("2026-11-28T10:00:00Z");
    private static final Instant JUST_NOW = NOW.minusSeconds(5);

    @Test
    void aFinishedEventIsReplayableAndAnOpenOneIsNot() {
        for (EventStatus status : EventStatus.values()) {
            boolean finished = status == EventStatus.COMPLETED || status == EventStatus.IGNORED
                    || status == EventStatus.DEAD;
            assertEquals(finished, Replays.replayable("gh", status, JUST_NOW, NOW), status.column());
        }
    }

    @Test
    void aReplayLeftReceivedLongerThanALostReplayIsReplayableAgain() {
        Instant lost = NOW.minus(Replays.LOST_REPLAY).minus(Duration.ofSeconds(1));
        assertTrue(Replays.replayable("gh", EventStatus.RECEIVED, lost, NOW));
        assertFalse(Replays.replayable("gh", EventStatus.RETRYING, lost, NOW), "a retry is the broker's");
        assertFalse(Replays.replayable("gh", EventStatus.RECEIVED, null, NOW));
    }

    @Test
    void theRecordOfAnUnreadableMessageIsNeverReplayable() {
        assertFalse(Replays.replayable(ReceivedEvent.UNREADABLE_SOURCE, EventStatus.DEAD, JUST_NOW, NOW));
    }
}
