package com.example.billing.it;

import dev.hookstile.api.HandlesWebhooks;
import dev.hookstile.api.PermanentFailure;
import dev.hookstile.api.TransientFailure;
import dev.hookstile.api.WebhookEvent;
import dev.hookstile.api.WebhookHandler;
import jakarta.enterprise.context.ApplicationScoped;

import javax.naming.InitialContext;
import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;

/**
 * A second handler of paid invoices, deployed by the IT only, that fails the first try of chosen invoices after
 * {@code PaidInvoices} wrote its row. Hookstile runs the handlers of an event in the order of their class names, in
 * one transaction: {@code com.example.billing.PaidInvoices} before {@code com.example.billing.it.ThenFails}. It
 * checks that the row is there before failing, so that the IT's "no row afterwards" shows a rollback, not a
 * handler that never wrote.
 */
@ApplicationScoped
@HandlesWebhooks(providers = "stripe", types = "invoice.paid")
public class ThenFails implements WebhookHandler {

    /** Invoices whose first try fails transiently: retried. */
    public static final String ONCE = "in_fails_once_";
    /** Invoices whose first try fails permanently: dead until replayed. */
    public static final String DIES = "in_dies_once_";

    @Override
    public void handle(WebhookEvent event) throws Exception {
        String invoice = event.json().getJsonObject("data").getJsonObject("object").getString("id", "");
        if (event.attempt() > 1 || !(invoice.startsWith(ONCE) || invoice.startsWith(DIES))) {
            return;
        }
        DataSource dataSource = InitialContext.doLookup("java:app/jdbc/hookstile");
        try (Connection connection = dataSource.getConnection();
             PreparedStatement rows = connection.prepareStatement(
                     "SELECT count(*) FROM paid_invoice WHERE event_id = ?")) {
            rows.setString(1, event.eventId());
            try (ResultSet count = rows.executeQuery()) {
                count.next();
                if (count.getLong(1) != 1) {
                    throw new PermanentFailure("PaidInvoices had not written its row: " + count.getLong(1));
                }
            }
        }
        if (invoice.startsWith(ONCE)) {
            throw new TransientFailure("the mail service is down (first try, after the row was written)");
        }
        throw new PermanentFailure("rejected by the ledger (first try, after the row was written)");
    }
}
