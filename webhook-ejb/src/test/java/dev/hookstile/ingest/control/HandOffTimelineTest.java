package dev.hookstile.ingest.control;

import dev.hookstile.dedup.boundary.DuplicateLookup;
import dev.hookstile.ingest.Outcome;
import dev.hookstile.platform.boundary.ContextServices;
import dev.hookstile.queue.boundary.EventMessage.Outgoing;
import dev.hookstile.queue.boundary.EventQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The hand-off's timeline places a request's wait in the stage that made it. */
class HandOffTimelineTest {

    private static final long SLOW_MILLIS = 40;

    @TempDir
    Path directory;

    @Test
    void aSlowSendIsTheSendStage() throws Exception {
        Path file = directory.resolve("timeline.log");
        HandOff handOff = handOff(file, Set.of(), SLOW_MILLIS, 0);
        try {
            assertEquals(List.of(Outcome.ACCEPTED), handOff.send(List.of(event("new-1"))));
        } finally {
            handOff.stop();
        }

        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertEquals(1, lines.size(), String.join("\n", lines));
        long[] fields = Arrays.stream(lines.get(0).split(" ")).mapToLong(Long::parseLong).toArray();
        assertEquals(7, fields.length);
        assertTrue(Math.abs(fields[0] - System.currentTimeMillis()) < 60_000, "when it woke: " + fields[0]);
        assertEquals(1, fields[1], "events");
        assertTrue(fields[5] >= SLOW_MILLIS * 1000, "the send stage: " + lines.get(0));
        for (int stage : new int[] {2, 3, 4, 6}) {
            assertTrue(fields[stage] >= 0 && fields[stage] < SLOW_MILLIS * 1000, "stage " + stage + ": " + lines.get(0));
        }
    }

    @Test
    void aSlowLookupIsTheLookupStage() throws Exception {
        Path file = directory.resolve("timeline.log");
        HandOff handOff = handOff(file, Set.of(), 0, SLOW_MILLIS);
        try {
            handOff.send(List.of(event("new-2")));
        } finally {
            handOff.stop();
        }

        String[] fields = Files.readAllLines(file, StandardCharsets.UTF_8).get(0).split(" ");
        assertTrue(Long.parseLong(fields[3]) >= SLOW_MILLIS * 1000, "the lookup stage: " + String.join(" ", fields));
        assertTrue(Long.parseLong(fields[5]) < SLOW_MILLIS * 1000, "the send stage: " + String.join(" ", fields));
    }

    @Test
    void aDuplicateTheLookupAnsweredLeavesNoLine() throws Exception {
        Path file = directory.resolve("timeline.log");
        HandOff handOff = handOff(file, Set.of("known-1"), 0, 0);
        try {
            assertEquals(List.of(Outcome.DUPLICATE), handOff.send(List.of(event("known-1"))));
        } finally {
            handOff.stop();
        }

        assertEquals(List.of(), Files.readAllLines(file, StandardCharsets.UTF_8));
    }

    private static HandOff handOff(Path timeline, Set<String> known, long sendMillis, long lookupMillis) {
        var handOff = new HandOff();
        handOff.queue = new EventQueue() {
            @Override
            public HeldProducer holdProducer() {
                return new HeldProducer() {
                    @Override
                    public void send(String queueName, List<Outgoing> events) {
                        pause(sendMillis);
                    }
                };
            }
        };
        handOff.duplicates = new DuplicateLookup() {
            @Override
            public Set<String> recordedAmong(String source, Collection<String> eventIds) {
                pause(lookupMillis);
                return known;
            }

            @Override
            public void start() {
            }
        };
        handOff.context = ContextServices.none();
        handOff.maxEvents = 64;
        handOff.timeoutSeconds = 5;
        handOff.senderCount = 1;
        handOff.timelineFile = Optional.of(timeline.toString());
        return handOff;
    }

    private static Outgoing event(String id) {
        return new Outgoing("gh", "github", id, "push", null, Instant.EPOCH, "{}", new byte[] {'{', '}'});
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
