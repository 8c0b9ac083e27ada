package dev.hookstile.processing.control;

import jakarta.ejb.ApplicationException;

/** A try of {@link EventTry} failed; its transaction rolls back and the cause is what went wrong. */
@ApplicationException(rollback = true)
public class TryFailed extends Exception {

    TryFailed(Throwable cause) {
        super(String.valueOf(cause), cause, false, false);
    }
}
