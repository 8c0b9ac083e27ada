package dev.hookstile.it.support;

import dev.hookstile.api.HandlesWebhooks;
import dev.hookstile.api.Outbox;
import dev.hookstile.api.WebhookEvent;
import dev.hookstile.api.WebhookHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * A handler with outbound effects, for the source {@code fx}: it posts a charge to OutboxIT's receiver through the
 * {@link Outbox}; {@code two-...} ids post a mail as well; {@code fail-once-...} ids post and then fail attempt 1,
 * so that try's effect must never leave.
 */
@ApplicationScoped
@HandlesWebhooks(sources = "fx")
public class EffectSender implements WebhookHandler {

    static final String RECEIVER = "http://127.0.0.1:18771/effects/";

    @Inject
    Outbox outbox;

    @Override
    public void handle(WebhookEvent event) {
        String id = event.eventId();
        outbox.post(URI.create(RECEIVER + "charges"), "application/json",
                ("{\"charge\":\"" + id + "\",\"attempt\":" + event.attempt() + "}").getBytes(StandardCharsets.UTF_8));
        if (id.startsWith("two-")) {
            outbox.post(URI.create(RECEIVER + "mail"), "text/plain", ("paid: " + id).getBytes(StandardCharsets.UTF_8));
        }
        if (id.startsWith("fail-once-") && event.attempt() == 1) {
            throw new IllegalStateException("simulated failure after scheduling an effect, attempt 1 of " + id);
        }
    }
}
