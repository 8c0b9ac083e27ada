package dev.hookstile.ingest.boundary;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * How large a webhook body may be and how long it may take to arrive: read in one place by both readers of a body,
 * the web module's non-blocking {@code BodyBuffer} and {@link Ingest}'s blocking read.
 */
@ApplicationScoped
public class BodyLimits {

    @Inject
    @ConfigProperty(name = "hookstile.ingest.max-body-bytes", defaultValue = "1048576")
    int maxBytes;

    @Inject
    @ConfigProperty(name = "hookstile.ingest.body-timeout-seconds", defaultValue = "10")
    int timeoutSeconds;

    public int maxBytes() {
        return maxBytes;
    }

    public int timeoutSeconds() {
        return timeoutSeconds;
    }
}
