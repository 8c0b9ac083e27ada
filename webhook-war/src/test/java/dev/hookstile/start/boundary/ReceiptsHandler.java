package dev.hookstile.start.boundary;

import dev.hookstile.api.HandlesWebhooks;
import dev.hookstile.api.WebhookEvent;
import dev.hookstile.api.WebhookHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** A handler that needs a setting of its own, as a user's does: its deployment fails while the setting is missing. */
@ApplicationScoped
@HandlesWebhooks(types = "invoice.paid")
public class ReceiptsHandler implements WebhookHandler {

    @Inject
    @ConfigProperty(name = "it.receipts-url")
    String receipts;

    @Override
    public void handle(WebhookEvent event) {
        // Only its setting matters here.
    }
}
