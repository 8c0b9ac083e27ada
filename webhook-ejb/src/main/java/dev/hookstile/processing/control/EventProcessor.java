package dev.hookstile.processing.control;

import dev.hookstile.api.WebhookEvent;
import dev.hookstile.dedup.control.EventClaim;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Clock;
import java.util.logging.Logger;

/** Claim, handle, complete: in the caller's transaction, which the consumer owns. */
@ApplicationScoped
public class EventProcessor {

    private static final Logger LOG = Logger.getLogger(EventProcessor.class.getName());

    @Inject
    EventClaim claim;

    @Inject
    Handlers handlers;

    private final Clock clock = Clock.systemUTC();

    /** {@code false} when the event was a duplicate and nothing ran. */
    public boolean process(WebhookEvent event, String headersJson) throws Exception {
        if (!claim.claim(event, headersJson)) {
            LOG.fine(() -> "Already claimed, skipped: " + event);
            return false;
        }
        handlers.dispatch(event);
        claim.complete(event, clock.instant());
        return true;
    }
}
