package dev.hookstile.notify.control;

/** A notification setting is wrong; the message names the variable to fix, never a secret's value. */
public class NotifyConfigurationException extends RuntimeException {

    public NotifyConfigurationException(String message) {
        super(message);
    }
}
