package dev.hookstile.ingest.control;

import dev.hookstile.ingest.Series;
import dev.hookstile.ingest.Outcome;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TallyTest {

    private static final long T0 = 1_764_000_000_000L; // a bucket boundary: divisible by 10,000

    @Test
    void anInstantBelongsToTheTenSecondBucketThatStartedAtOrBeforeIt() {
        assertEquals(T0, Series.bucketOf(T0));
        assertEquals(T0, Series.bucketOf(T0 + 9_999));
        assertEquals(T0 + 10_000, Series.bucketOf(T0 + 10_000));
        assertEquals(-10_000, Series.bucketOf(-1));
    }

    @Test
    void outcomesAreCountedPerSourceAndBucketAndTheNewestAcceptedEventIsKept() {
        var tally = new Tally();
        tally.count("gh", Outcome.ACCEPTED, T0 + 1);
        tally.count("gh", Outcome.ACCEPTED, T0 + 5);
        tally.count("gh", Outcome.DUPLICATE, T0 + 7);
        tally.count("gh", Outcome.REJECTED, T0 + 10_001);
        tally.count("pay", Outcome.ACCEPTED, T0 + 3);

        List<Tally.Delta> deltas = sorted(tally.drain(T0 + 10_002));

        assertEquals(List.of(new Tally.Delta(T0, "gh", 2, 1, 0, T0 + 5),
                new Tally.Delta(T0, "pay", 1, 0, 0, T0 + 3),
                new Tally.Delta(T0 + 10_000, "gh", 0, 0, 1, 0)), deltas);
    }

    @Test
    void aDrainTakesTheCountsSoTheNextDrainHasOnlyWhatCameSince() {
        var tally = new Tally();
        tally.count("gh", Outcome.ACCEPTED, T0);
        tally.drain(T0 + 1);
        tally.count("gh", Outcome.ACCEPTED, T0 + 2);

        assertEquals(List.of(new Tally.Delta(T0, "gh", 1, 0, 0, T0 + 2)), tally.drain(T0 + 3));
        assertEquals(List.of(), tally.drain(T0 + 4));
    }

    @Test
    void countsOfAFailedWriteAreRestoredAndWrittenWithTheNextDrain() {
        var tally = new Tally();
        tally.count("gh", Outcome.ACCEPTED, T0);
        List<Tally.Delta> failed = tally.drain(T0 + 1);
        tally.count("gh", Outcome.DUPLICATE, T0 + 2);

        tally.restore(failed, T0 + 3, 60_000);

        assertEquals(List.of(new Tally.Delta(T0, "gh", 1, 1, 0, T0)), tally.drain(T0 + 4));
    }

    @Test
    void restoredCountsOlderThanTheBucketsKeptAreDropped() {
        var tally = new Tally();
        tally.restore(List.of(new Tally.Delta(T0, "gh", 5, 0, 0, T0)), T0 + 120_000, 60_000);

        assertEquals(List.of(), tally.drain(T0 + 120_001));
    }

    @Test
    void pendingShowsWhatIsNotDrainedWithoutTakingIt() {
        var tally = new Tally();
        tally.count("gh", Outcome.ACCEPTED, T0);

        assertEquals(List.of(new Tally.Delta(T0, "gh", 1, 0, 0, T0)), tally.pending());
        assertEquals(List.of(new Tally.Delta(T0, "gh", 1, 0, 0, T0)), tally.drain(T0 + 1));
        assertEquals(List.of(), tally.pending());
    }

    @Test
    void concurrentCountsAndDrainsLoseNothing() throws InterruptedException {
        var tally = new Tally();
        ExecutorService threads = Executors.newFixedThreadPool(4);
        int perThread = 50_000;
        for (int t = 0; t < 4; t++) {
            threads.execute(() -> {
                for (int i = 0; i < perThread; i++) {
                    tally.count("gh", Outcome.ACCEPTED, T0 + 1);
                }
            });
        }
        long drained = 0;
        threads.shutdown();
        while (!threads.awaitTermination(1, TimeUnit.MILLISECONDS)) {
            drained += tally.drain(T0 + 2).stream().mapToLong(Tally.Delta::accepted).sum();
        }
        drained += tally.drain(T0 + 2).stream().mapToLong(Tally.Delta::accepted).sum();

        assertEquals(4L * perThread, drained);
    }

    @Test
    void deltasOfOneBucketAndSourceAreMerged() {
        List<Tally.Delta> merged = Tally.merged(List.of(new Tally.Delta(T0, "gh", 1, 2, 3, T0 + 1),
                new Tally.Delta(T0, "gh", 10, 0, 0, T0 + 9), new Tally.Delta(T0, "pay", 1, 0, 0, 0)));

        assertEquals(2, merged.size());
        assertTrue(merged.contains(new Tally.Delta(T0, "gh", 11, 2, 3, T0 + 9)));
    }

    private static List<Tally.Delta> sorted(List<Tally.Delta> deltas) {
        var copy = new ArrayList<>(deltas);
        copy.sort((a, b) -> a.bucketStart() != b.bucketStart() ? Long.compare(a.bucketStart(), b.bucketStart())
                : a.source().compareTo(b.source()));
        return copy;
    }
}
