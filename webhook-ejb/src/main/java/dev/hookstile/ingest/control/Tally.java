package dev.hookstile.ingest.control;

import dev.hookstile.ingest.Outcome;
import dev.hookstile.ingest.Series;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * What ingest answered, counted in memory per 10-second bucket and source, for the operator overview. Counting is
 * what the request path pays: a map lookup and a {@link LongAdder} increment, no lock, no I/O. A timer
 * ({@code IngestBuckets}) {@link #drain drains} the deltas every few seconds into the database, where the buckets of
 * every instance add up.
 *
 * <p>An entry is removed once drained and its bucket over for more than one bucket: a request thread that looked the
 * entry up before the removal and increments it only after (more than ten seconds later) loses that one count. Nothing
 * else is lost: {@link LongAdder#sumThenReset()} takes each cell with an atomic exchange.
 */
public final class Tally {

    /** What one source's bucket gained since the last drain. {@code lastEventAt} 0 when no event was accepted. */
    public record Delta(long bucketStart, String source, long accepted, long duplicate, long rejected,
                        long lastEventAt) {

        boolean empty() {
            return accepted == 0 && duplicate == 0 && rejected == 0;
        }

        Delta plus(Delta other) {
            return new Delta(bucketStart, source, accepted + other.accepted, duplicate + other.duplicate,
                    rejected + other.rejected, Math.max(lastEventAt, other.lastEventAt));
        }
    }

    private record Key(long bucketStart, String source) {
    }

    private static final class Counts {
        final LongAdder accepted = new LongAdder();
        final LongAdder duplicate = new LongAdder();
        final LongAdder rejected = new LongAdder();
        final LongAccumulator lastEventAt = new LongAccumulator(Math::max, 0);
    }

    private final Map<Key, Counts> counts = new ConcurrentHashMap<>();

    /** One outcome of one event (or refused delivery) of {@code source}, at {@code nowMillis}. */
    public void count(String source, Outcome outcome, long nowMillis) {
        Counts bucket = counts.computeIfAbsent(new Key(Series.bucketOf(nowMillis), source), key -> new Counts());
        switch (outcome) {
            case ACCEPTED -> {
                bucket.accepted.increment();
                bucket.lastEventAt.accumulate(nowMillis);
            }
            case DUPLICATE -> bucket.duplicate.increment();
            case REJECTED -> bucket.rejected.increment();
            // A 503 is counted as a refusal by its reason (DeliveryMetrics.rejected) or not at all (the broker's).
            case UNAVAILABLE -> { }
        }
    }

    /** Takes every count made since the last drain, for the database; buckets long over are forgotten. */
    public List<Delta> drain(long nowMillis) {
        long current = Series.bucketOf(nowMillis);
        List<Delta> deltas = new ArrayList<>();
        for (var entry : counts.entrySet()) {
            Counts c = entry.getValue();
            Key key = entry.getKey();
            if (key.bucketStart() < current - Series.BUCKET_MILLIS) {
                counts.remove(key);
            }
            var delta = new Delta(key.bucketStart(), key.source(), c.accepted.sumThenReset(),
                    c.duplicate.sumThenReset(), c.rejected.sumThenReset(), c.lastEventAt.getThenReset());
            if (!delta.empty()) {
                deltas.add(delta);
            }
        }
        return deltas;
    }

    /** Counts a drain took that could not be written: they are written with the next drain instead. */
    public void restore(List<Delta> deltas, long nowMillis, long keepMillis) {
        for (Delta delta : deltas) {
            if (delta.bucketStart() < nowMillis - keepMillis) {
                continue;
            }
            Counts c = counts.computeIfAbsent(new Key(delta.bucketStart(), delta.source()), key -> new Counts());
            c.accepted.add(delta.accepted());
            c.duplicate.add(delta.duplicate());
            c.rejected.add(delta.rejected());
            c.lastEventAt.accumulate(delta.lastEventAt());
        }
    }

    /** What is counted and not drained yet, without taking it: this instance's most recent seconds. */
    public List<Delta> pending() {
        List<Delta> deltas = new ArrayList<>();
        counts.forEach((key, c) -> {
            var delta = new Delta(key.bucketStart(), key.source(), c.accepted.sum(), c.duplicate.sum(),
                    c.rejected.sum(), c.lastEventAt.get());
            if (!delta.empty()) {
                deltas.add(delta);
            }
        });
        return deltas;
    }

    /** Deltas of the same bucket and source added up. */
    public static List<Delta> merged(List<Delta> deltas) {
        Map<Key, Delta> merged = new LinkedHashMap<>();
        for (Delta delta : deltas) {
            merged.merge(new Key(delta.bucketStart(), delta.source()), delta, Delta::plus);
        }
        return new ArrayList<>(merged.values());
    }
}
