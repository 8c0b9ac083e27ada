package dev.hookstile.source.control;

import dev.hookstile.source.RejectedDelivery;
import dev.hookstile.source.Rejection;

import java.time.Duration;
import java.time.Instant;

/** The signed-timestamp checks shared by the providers that sign one: replay protection. */
final class Timestamps {

    private Timestamps() {
    }

    static long epochSeconds(String text, String what) throws RejectedDelivery {
        if (text.isEmpty() || text.length() > 12 || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new RejectedDelivery(Rejection.INVALID_TIMESTAMP, what + " must be a Unix time in seconds");
        }
        return Long.parseLong(text);
    }

    /** Rejects timestamps too far in the past (a replay) and too far in the future (a forged clock). */
    static void requireWithin(long signedAtSeconds, Instant now, Duration tolerance) throws RejectedDelivery {
        long skew = now.getEpochSecond() - signedAtSeconds;
        if (Math.abs(skew) > tolerance.toSeconds()) {
            throw new RejectedDelivery(Rejection.TIMESTAMP_OUT_OF_TOLERANCE, "the signed timestamp is "
                    + Math.abs(skew) + " s " + (skew > 0 ? "old" : "in the future") + "; at most "
                    + tolerance.toSeconds() + " s is accepted");
        }
    }
}
