package dev.hookstile.api;

/** A failure that processing the same event again cannot fix: invalid content, a rejected business rule. */
public class PermanentFailure extends RuntimeException {

    public PermanentFailure(String message) {
        super(message);
    }

    public PermanentFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
