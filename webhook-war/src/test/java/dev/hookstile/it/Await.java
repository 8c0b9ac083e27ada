package dev.hookstile.it;

import java.time.Duration;

/** Waits for a condition, polling, and fails saying what did not happen in time. */
public final class Await {

    /** A condition that may read the database or the server. */
    public interface Condition {
        boolean holds() throws Exception;
    }

    private Await() {
    }

    public static void until(Condition condition, Duration timeout, String what) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.holds()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + timeout.toSeconds() + " s: " + what);
            }
            Webhooks.sleep(Duration.ofMillis(500));
        }
    }
}
