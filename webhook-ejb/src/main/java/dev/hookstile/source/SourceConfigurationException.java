package dev.hookstile.source;

/** The source configuration is wrong; the message says which setting to fix. */
public class SourceConfigurationException extends RuntimeException {

    public SourceConfigurationException(String message) {
        super(message);
    }
}
