package dev.hookstile.ingest;

import java.util.List;

/**
 * The overview's chart: events per second by outcome in each of the {@link #BUCKETS} 10-second buckets before the
 * current one (15 minutes). The current bucket is left out: still filling, it would show every rate falling at the
 * right edge.
 *
 * @param start     the first bucket's start, epoch milliseconds
 * @param accepted  events per second, one value per bucket, oldest first; likewise {@code duplicate}, {@code rejected}
 */
public record Series(long start, double[] accepted, double[] duplicate, double[] rejected) {

    public static final int BUCKETS = 90;

    /** How long a bucket is: what ingest counts in memory and stores ({@code Tally}) adds up per bucket. */
    public static final long BUCKET_MILLIS = 10_000;

    /** One bucket's counts as stored, or as counted in memory and not yet stored. */
    public record Counts(long bucketStart, long accepted, long duplicate, long rejected) {
    }

    /** The start of the bucket holding this instant, in epoch milliseconds. */
    public static long bucketOf(long epochMillis) {
        return Math.floorDiv(epochMillis, BUCKET_MILLIS) * BUCKET_MILLIS;
    }

    /** The window ending with the bucket before {@code nowMillis}'s: its first bucket's start. */
    public static long windowStart(long nowMillis) {
        return bucketOf(nowMillis) - BUCKETS * BUCKET_MILLIS;
    }

    /** The series of the window before {@code nowMillis}, from counts in any order (several per bucket add up). */
    public static Series of(List<Counts> counts, long nowMillis) {
        long start = windowStart(nowMillis);
        long[][] sums = new long[3][BUCKETS];
        for (Counts c : counts) {
            long offset = c.bucketStart() - start;
            if (offset < 0 || offset % BUCKET_MILLIS != 0) {
                continue;
            }
            int index = (int) (offset / BUCKET_MILLIS);
            if (index >= BUCKETS) {
                continue;
            }
            sums[0][index] += c.accepted();
            sums[1][index] += c.duplicate();
            sums[2][index] += c.rejected();
        }
        return new Series(start, perSecond(sums[0]), perSecond(sums[1]), perSecond(sums[2]));
    }

    private static double[] perSecond(long[] counts) {
        double seconds = BUCKET_MILLIS / 1000.0;
        double[] rates = new double[counts.length];
        for (int i = 0; i < counts.length; i++) {
            // Two decimals are all a chart needs, and keep the JSON short.
            rates[i] = Math.round(counts[i] / seconds * 100) / 100.0;
        }
        return rates;
    }
}
