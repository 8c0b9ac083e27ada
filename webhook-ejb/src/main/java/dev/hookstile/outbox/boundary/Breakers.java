package dev.hookstile.outbox.boundary;

import dev.hookstile.outbox.control.DestinationBreakers;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;

/**
 * The relay's circuit breakers, readable by operators. Apart from {@link OutboxRelay} on purpose: the relay is a
 * singleton EJB whose timer holds its lock while it sends (seconds, with a slow destination), and a read through it
 * would wait for that; {@link DestinationBreakers} is safe to read concurrently.
 */
@ApplicationScoped
public class Breakers {

    /** A breaker's state as the console shows it. */
    public enum State {
        /** Requests go out. */
        CLOSED,
        /** Left alone after failures in a row: due entries are rescheduled without a request. */
        OPEN,
        /** Open time over: the next request is a trial, which closes or opens it again. */
        HALF_OPEN;

        public String label() {
            return this == HALF_OPEN ? "half-open" : name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private volatile DestinationBreakers breakers;

    void use(DestinationBreakers breakers) {
        this.breakers = breakers;
    }

    DestinationBreakers breakers() {
        return breakers;
    }

    /** The breaker of a destination (its URL as stored in the outbox) on this instance. */
    public State of(String destination) {
        DestinationBreakers current = breakers;
        if (current == null) {
            return State.CLOSED;
        }
        return switch (current.status(destination, Instant.now())) {
            case OPEN -> State.OPEN;
            case HALF_OPEN -> State.HALF_OPEN;
            case CLOSED -> State.CLOSED;
        };
    }
}
