package dev.hookstile.queue.boundary;

/** The event could not be made durable (the broker is unreachable): the sender must retry, so never answer 2xx. */
public class HandOffFailure extends Exception {

    public HandOffFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
