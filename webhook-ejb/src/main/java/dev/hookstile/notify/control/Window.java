package dev.hookstile.notify.control;

import java.time.Duration;
import java.time.Instant;

/**
 * A fixed window of time: windows of one length are aligned on the epoch, so every instance cuts time at the same
 * instants and files a moment under the same window.
 */
public record Window(Instant start, Duration length) {

    /** The window holding {@code at}. */
    public static Window of(Instant at, Duration length) {
        long seconds = length.toSeconds();
        return new Window(Instant.ofEpochSecond(Math.floorDiv(at.getEpochSecond(), seconds) * seconds), length);
    }

    /**
     * Where the windows that are closed at {@code now} end: each one that ended at least {@code grace} ago. Deaths
     * before the returned instant can be counted for good.
     */
    public static Instant closedUntil(Instant now, Duration length, Duration grace) {
        return of(now.minus(grace), length).start();
    }

    public Instant end() {
        return start.plus(length);
    }
}
