package dev.hookstile.metrics.boundary;

import java.util.concurrent.atomic.LongAdder;

/** One series of a counter family: only ever goes up, from 0 at the start. */
public final class Counter {

    private final LongAdder count = new LongAdder();

    public Counter() {
    }

    public void inc() {
        count.increment();
    }

    public void add(long n) {
        if (n < 0) {
            throw new IllegalArgumentException("a counter only goes up");
        }
        count.add(n);
    }

    public long value() {
        return count.sum();
    }
}
