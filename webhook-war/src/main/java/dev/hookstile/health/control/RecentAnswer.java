package dev.hookstile.health.control;

import org.eclipse.microprofile.health.HealthCheckResponse;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A readiness check's answer, reused for {@value #VALID_MILLIS} ms. {@code /health/ready} answers without
 * credentials and each answer cost a database and a broker round trip: anyone could have turned request volume into
 * load on both. Now at most one round trip per check per second reaches them, however many calls arrive; a change
 * (the broker gone) shows within that second plus the round trip.
 *
 * <p>While one call asks afresh, concurrent calls get the previous answer instead of waiting (a database that stops
 * answering holds one thread, not every prober's); only the very first calls wait for the first answer.
 */
public final class RecentAnswer {

    static final long VALID_MILLIS = 1_000;

    private record Answer(HealthCheckResponse response, long at) {
    }

    private final Supplier<HealthCheckResponse> check;
    private final LongSupplier clock;
    private final long validNanos = TimeUnit.MILLISECONDS.toNanos(VALID_MILLIS);
    private final ReentrantLock asking = new ReentrantLock();
    private volatile Answer last;

    /** @param clock nanoseconds, as {@link System#nanoTime()} */
    public RecentAnswer(Supplier<HealthCheckResponse> check, LongSupplier clock) {
        this.check = check;
        this.clock = clock;
    }

    public HealthCheckResponse get() {
        Answer seen = last;
        if (seen != null && clock.getAsLong() - seen.at() < validNanos) {
            return seen.response();
        }
        if (seen == null) {
            asking.lock();
        } else if (!asking.tryLock()) {
            return seen.response();
        }
        try {
            Answer current = last;
            if (current != seen) {
                // Asked afresh by another call while this one waited for the lock.
                return current.response();
            }
            HealthCheckResponse fresh = check.get();
            last = new Answer(fresh, clock.getAsLong());
            return fresh;
        } finally {
            asking.unlock();
        }
    }
}
