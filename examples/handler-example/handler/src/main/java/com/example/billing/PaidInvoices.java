package com.example.billing;

import dev.hookstile.api.HandlesWebhooks;
import dev.hookstile.api.PermanentFailure;
import dev.hookstile.api.WebhookEvent;
import dev.hookstile.api.WebhookHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;

import java.io.StringReader;
import java.util.logging.Logger;

/**
 * Receives Stripe's paid invoices, once each: Hookstile has verified the signature, claimed the event and opened the
 * transaction this runs in. A real handler would record the payment through the application's data source here, so
 * that it commits with the claim; this one logs it.
 */
@ApplicationScoped
@HandlesWebhooks(providers = "stripe", types = "invoice.paid")
public class PaidInvoices implements WebhookHandler {

    private static final Logger LOG = Logger.getLogger(PaidInvoices.class.getName());

    @Override
    public void handle(WebhookEvent event) {
        JsonObject invoice;
        try (var reader = Json.createReader(new StringReader(event.payloadAsString()))) {
            invoice = reader.readObject().getJsonObject("data").getJsonObject("object");
        } catch (JsonException | ClassCastException | NullPointerException e) {
            // Signed by Stripe yet not an invoice event: retrying cannot help, so it is dead and replayable.
            throw new PermanentFailure("not a Stripe invoice event: " + e.getMessage(), e);
        }
        LOG.info(() -> "invoice " + invoice.getString("id", "?") + " paid (event " + event.eventId() + ")");
    }
}
