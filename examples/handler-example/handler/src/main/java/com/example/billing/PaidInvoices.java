package com.example.billing;

import dev.hookstile.api.HandlesWebhooks;
import dev.hookstile.api.PermanentFailure;
import dev.hookstile.api.WebhookEvent;
import dev.hookstile.api.WebhookHandler;
import jakarta.enterprise.context.ApplicationScoped;

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
        // A body that is not JSON, or not an invoice event, fails permanently: signed by Stripe as it is, no retry
        // can change it, so it is dead and replayable with the reason below.
        InvoicePaid.Invoice invoice = event.payloadAs(InvoicePaid.class).invoice();
        if (invoice == null || invoice.id() == null) {
            throw new PermanentFailure("not a Stripe invoice event: it has no data.object.id");
        }
        // The event's own description quotes what the sender chose (its id); the amount is a number.
        LOG.info(() -> "invoice paid, amount " + invoice.amountPaid() + " (" + event + ")");
    }
}
