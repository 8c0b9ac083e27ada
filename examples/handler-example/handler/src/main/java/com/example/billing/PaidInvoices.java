package com.example.billing;

import dev.hookstile.api.HandlesWebhooks;
import dev.hookstile.api.Outbox;
import dev.hookstile.api.PermanentFailure;
import dev.hookstile.api.WebhookEvent;
import dev.hookstile.api.WebhookHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Optional;

/**
 * Records Stripe's paid invoices in the application's {@code paid_invoice} table and schedules a receipt e-mail,
 * once per event: Hookstile has verified the signature, claimed the event and opened the transaction this runs in.
 * The row commits with the claim or not at all, and the e-mail is sent (by Hookstile's outbox, after the commit)
 * exactly when the row exists.
 *
 * <p>The table comes with the jar ({@code db/handler-migration/V1__paid_invoice.sql}, applied by Hookstile at
 * start). Receipts go to the e-mail service at {@code billing.receipts-url} ({@code BILLING_RECEIPTS_URL}); without
 * one the invoices are still recorded and no receipt is scheduled, so the example runs as it is, with no e-mail
 * service beside it. An outbox entry for a service nobody runs would only pile up as dead deliveries.
 */
@ApplicationScoped
@HandlesWebhooks(providers = "stripe", types = "invoice.paid")
public class PaidInvoices implements WebhookHandler {

    /** Hookstile's pool, enlisted in the processing transaction; an application's own JTA data source works too. */
    static final String DATA_SOURCE = "java:app/jdbc/hookstile";
    static final String RECORD = "INSERT INTO paid_invoice (event_id, invoice_id, amount_paid, currency)"
            + " VALUES (?, ?, ?, ?)";

    @Inject
    Outbox outbox;

    /**
     * The e-mail service's endpoint for receipts; it deduplicates on the Idempotency-Key the outbox sends. Unset: no
     * receipts.
     */
    @Inject
    @ConfigProperty(name = "billing.receipts-url")
    Optional<URI> receipts;

    private volatile DataSource dataSource;

    /** For CDI. */
    protected PaidInvoices() {
    }

    /** For a test without a container. */
    PaidInvoices(DataSource dataSource, Outbox outbox, Optional<URI> receipts) {
        this.dataSource = dataSource;
        this.outbox = outbox;
        this.receipts = receipts;
    }

    @Override
    public void handle(WebhookEvent event) throws SQLException {
        // A body that is not JSON, or not an invoice event, fails permanently: signed by Stripe as it is, no retry
        // can change it, so it is dead and replayable with the reason below.
        InvoicePaid.Invoice invoice = event.payloadAs(InvoicePaid.class).invoice();
        if (invoice == null || invoice.id() == null || invoice.currency() == null) {
            throw new PermanentFailure("not a Stripe invoice event: it has no data.object.id or currency");
        }
        try (Connection connection = dataSource().getConnection();
             PreparedStatement record = connection.prepareStatement(RECORD)) {
            record.setString(1, event.eventId());
            record.setString(2, invoice.id());
            record.setLong(3, invoice.amountPaid());
            record.setString(4, invoice.currency());
            record.executeUpdate();
        }
        if (receipts.isEmpty()) {
            return;
        }
        // Written with the row, sent after the commit: a try that rolls back sends no receipt.
        String receipt = Json.createObjectBuilder()
                .add("template", "receipt")
                .add("invoice", invoice.id())
                .add("amount", invoice.amountPaid())
                .add("currency", invoice.currency())
                .build().toString();
        outbox.post(receipts.get(), "application/json", receipt.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Looked up when first needed rather than injected with {@code @Resource}: in the EAR this jar sits in
     * {@code lib/}, where CDI resolves {@code @Resource} before the EJB module has defined Hookstile's pool.
     */
    private DataSource dataSource() {
        DataSource found = dataSource;
        if (found == null) {
            try {
                found = InitialContext.doLookup(DATA_SOURCE);
            } catch (NamingException e) {
                throw new IllegalStateException("no data source at " + DATA_SOURCE, e);
            }
            dataSource = found;
        }
        return found;
    }
}
