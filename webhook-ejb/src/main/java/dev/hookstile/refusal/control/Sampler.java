package dev.hookstile.refusal.control;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Which refusals are kept as examples: the first {@code examplesPerMinute} of each source and reason in each minute;
 * every refusal is counted. A flood of bad signatures thus costs a map lookup and an atomic add per request, and at
 * most that many rows a minute per source and reason. The keys are bounded by the caller (configured sources, one
 * name for all others; the fixed reasons).
 */
public final class Sampler {

    private static final long MINUTE = 60_000L;

    private final int examplesPerMinute;
    private final Map<Key, Tally> counts = new ConcurrentHashMap<>();

    public Sampler(int examplesPerMinute) {
        this.examplesPerMinute = Math.max(0, examplesPerMinute);
    }

    /** One refusal counted at this time; {@code true} when it is one of the minute's examples to keep. */
    public boolean count(String source, String reason, long nowMillis) {
        long nth = counts.computeIfAbsent(new Key(minute(nowMillis), source, reason), k -> new Tally())
                .total.incrementAndGet();
        return nth <= examplesPerMinute;
    }

    /**
     * What was counted since the last drain, by minute, source and reason; the minutes before this time's are then
     * forgotten (their examples are decided). Called by one thread at a time.
     */
    public List<Count> drain(long nowMillis) {
        long current = minute(nowMillis);
        var deltas = new ArrayList<Count>();
        counts.forEach((key, tally) -> {
            long total = tally.total.get();
            long delta = total - tally.written;
            if (delta > 0) {
                deltas.add(new Count(key.minute(), key.source(), key.reason(), delta));
                tally.written = total;
            }
            if (key.minute() < current && tally.total.get() == tally.written) {
                counts.remove(key, tally);
            }
        });
        return deltas;
    }

    /** Counts of a failed write, to be drained again with the next ones; on the draining thread. */
    public void restore(List<Count> failed) {
        for (Count count : failed) {
            counts.computeIfAbsent(new Key(count.minuteStart(), count.source(), count.reason()), k -> new Tally())
                    .written -= count.refused();
        }
    }

    private static long minute(long millis) {
        return Math.floorDiv(millis, MINUTE) * MINUTE;
    }

    private record Key(long minute, String source, String reason) {
    }

    /** Counted, and how much of it was drained. */
    private static final class Tally {
        final AtomicLong total = new AtomicLong();
        volatile long written;
    }

    /** How many refusals of a source and reason a minute saw since the last drain. */
    public record Count(long minuteStart, String source, String reason, long refused) {
    }
}
