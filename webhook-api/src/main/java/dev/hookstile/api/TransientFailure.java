package dev.hookstile.api;

/** A failure that may go away if the event is processed again later: a timeout, an unavailable dependency. */
public class TransientFailure extends RuntimeException {

    public TransientFailure(String message) {
        super(message);
    }

    public TransientFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
