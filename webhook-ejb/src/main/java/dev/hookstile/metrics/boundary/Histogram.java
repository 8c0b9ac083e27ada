package dev.hookstile.metrics.boundary;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * One series of a histogram family: a counter per bucket of fixed bounds, kept since the start. Unlike MicroProfile's
 * histograms (computed from a decaying sample of about 1,000 values), its buckets are cumulative over time and only go
 * up, so {@code rate()} and {@code histogram_quantile()} over them are right.
 */
public final class Histogram {

    private static final double NANOS_PER_SECOND = TimeUnit.SECONDS.toNanos(1);

    private final double[] bounds;
    /** Observations per bucket, not cumulative: {@code counts[i]} holds those in (bounds[i-1], bounds[i]]. */
    private final LongAdder[] counts;
    private final DoubleAdder sum = new DoubleAdder();

    Histogram(double[] bounds) {
        this.bounds = bounds;
        this.counts = new LongAdder[bounds.length + 1];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = new LongAdder();
        }
    }

    /** Counts one observation, in the family's unit (seconds for the {@code _seconds} families). */
    public void observe(double value) {
        int low = 0;
        int high = bounds.length;
        // The first bound at or above the value (le is "less than or equal"); past the last: +Inf.
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (bounds[mid] < value) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        counts[low].increment();
        sum.add(value);
    }

    /** Counts a duration given in nanoseconds (from {@link System#nanoTime()}) as seconds. */
    public void observeNanos(long nanos) {
        observe(Math.max(0, nanos) / NANOS_PER_SECOND);
    }

    /** The cumulative counts per bound, {@code +Inf} last: the {@code _bucket} series, and the last is the count. */
    long[] cumulative() {
        long[] cumulative = new long[counts.length];
        long running = 0;
        for (int i = 0; i < counts.length; i++) {
            running += counts[i].sum();
            cumulative[i] = running;
        }
        return cumulative;
    }

    double sum() {
        return sum.sum();
    }

    double[] bounds() {
        return bounds;
    }
}
