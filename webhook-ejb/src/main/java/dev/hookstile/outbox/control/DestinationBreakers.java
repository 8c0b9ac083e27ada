package dev.hookstile.outbox.control;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A circuit breaker per destination: after {@code threshold} transient failures in a row the destination is left
 * alone for {@code openFor}, its due entries rescheduled as transient failures without a request; then one request
 * tries it (half-open), and a success closes the breaker while a failure opens it again.
 *
 * <p>Not MicroProfile Fault Tolerance's {@code @CircuitBreaker}: its state belongs to an annotated method, so one
 * breaker would serve every destination and one that is down would stop forwarding to all the others. Without a
 * breaker, a destination that times out holds the relay ten seconds per entry, every entry, every turn.
 *
 * <p>Per instance, in memory: each instance finds out for itself, after {@code threshold} requests.
 */
public final class DestinationBreakers {

    private record State(int failures, Instant openUntil) {
    }

    private final int threshold;
    private final Duration openFor;
    private final Map<String, State> states = new ConcurrentHashMap<>();

    public DestinationBreakers(int threshold, Duration openFor) {
        if (threshold < 1 || openFor.isNegative()) {
            throw new IllegalArgumentException("threshold must be at least 1 and the open time not negative");
        }
        this.threshold = threshold;
        this.openFor = openFor;
    }

    /** Until when requests to the destination are pointless, or {@code null} when one may be sent now. */
    public Instant openUntil(String destination, Instant now) {
        State state = states.get(destination);
        return state == null || state.openUntil() == null || !now.isBefore(state.openUntil()) ? null : state.openUntil();
    }

    /** Whether its last request failed transiently: it gets one request at a time until it answers. */
    public boolean failing(String destination) {
        return states.containsKey(destination);
    }

    /**
     * The destination answered (any answer that is not a transient failure): closed.
     *
     * @return {@code true} when that closed a breaker that had opened (its trial request answered)
     */
    public boolean answered(String destination) {
        State was = states.remove(destination);
        return was != null && was.openUntil() != null;
    }

    /** A transient failure; {@code true} when it opened the breaker. */
    public boolean failed(String destination, Instant now) {
        State state = states.merge(destination, new State(1, null),
                (old, one) -> new State(old.failures() + 1, old.openUntil()));
        if (state.failures() >= threshold) {
            states.put(destination, new State(state.failures(), now.plus(openFor)));
            return true;
        }
        return false;
    }

    public int threshold() {
        return threshold;
    }

    /** What operators see of a breaker. */
    public enum Status { CLOSED, OPEN, HALF_OPEN }

    /**
     * Closed while requests go out (failures below the threshold included), open until its open time is over,
     * then half-open: the next request is the trial.
     */
    public Status status(String destination, Instant now) {
        State current = states.get(destination);
        if (current == null || current.openUntil() == null) {
            return Status.CLOSED;
        }
        return now.isBefore(current.openUntil()) ? Status.OPEN : Status.HALF_OPEN;
    }
}
