package dev.hookstile.ear.smoke;

import dev.hookstile.api.TransientFailure;
import dev.hookstile.api.WebhookEvent;
import dev.hookstile.api.WebhookHandler;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The handler PayaraServerIT adds to the EAR's {@code lib/}, the way a handler author's jar goes in: it fails the
 * first attempt of events whose id starts with {@code flaky-} as a transient failure, so the test sees the retry.
 */
@ApplicationScoped
public class FlakyHandler implements WebhookHandler {

    @Override
    public void handle(WebhookEvent event) {
        if (event.eventId().startsWith("flaky-") && event.attempt() == 1) {
            throw new TransientFailure("the back office is briefly unavailable (test)");
        }
    }
}
