package dev.hookstile.outbox.boundary;

import java.time.Instant;

/**
 * A destination's circuit breaker on this instance opened (after failures in a row at a destination that answered
 * before) or closed (it answered again), fired as a CDI event by {@link OutboxRelay} on its own thread: an observer
 * must return at once. Re-opening after a failed trial is no change: the breaker was never closed in between.
 *
 * @param destination the destination's URL, as the outbox stores it; never to be logged unredacted
 * @param opened      {@code true} when it opened, {@code false} when it closed
 */
public record BreakerChange(String destination, boolean opened, Instant at) {
}
