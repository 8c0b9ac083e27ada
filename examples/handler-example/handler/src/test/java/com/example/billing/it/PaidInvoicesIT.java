package com.example.billing.it;

import com.example.billing.InvoicePaid;
import com.example.billing.PaidInvoices;
import dev.hookstile.test.Deliveries;
import dev.hookstile.test.EventOutcome;
import dev.hookstile.test.Hookstile;
import dev.hookstile.test.HookstileDeployment;
import dev.hookstile.test.SignedDelivery;
import dev.hookstile.test.TestRuntime;
import jakarta.json.JsonObject;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URL;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The handler inside Hookstile on Payara Micro and PostgreSQL, fed deliveries signed as Stripe signs them: what
 * commits with the claim, what a duplicate, a failure and a replay do to the application's table and its e-mails.
 * The table is the handler's migration's ({@code db/handler-migration}), applied by Hookstile as it deployed.
 */
@ExtendWith(ArquillianExtension.class)
class PaidInvoicesIT {

    private static final String SECRET = "whsec_billing_it_secret";
    private static final ReceiptService RECEIPTS = ReceiptService.start();

    @Deployment(testable = false)
    static WebArchive hookstile() {
        return HookstileDeployment.withHandlers(PaidInvoices.class, InvoicePaid.class, ThenFails.class)
                .source("billing", "stripe", SECRET)
                .setting("billing.receipts-url", RECEIPTS.url())
                .archive();
    }

    @ArquillianResource
    URL url;

    private Hookstile hookstile;

    @BeforeEach
    void client() {
        hookstile = Hookstile.at(url);
    }

    private static SignedDelivery invoicePaid(String eventId, String invoice, String amount) {
        return Deliveries.stripe("billing", SECRET, """
                {"id":"%s","object":"event","type":"invoice.paid","data":{"object":{"id":"%s","object":"invoice",\
                "amount_paid":%s,"currency":"eur"}}}""".formatted(eventId, invoice, amount));
    }

    private static String newId(String prefix) {
        return prefix + UUID.randomUUID().toString().replace("-", "");
    }

    @Test
    void aPaidInvoiceIsRecordedOnceAndItsReceiptSentOnce() throws Exception {
        String event = newId("evt_");
        String invoice = newId("in_");

        EventOutcome outcome = hookstile.process(invoicePaid(event, invoice, "2000"));

        assertEquals("completed", outcome.status(), outcome::toString);
        assertEquals(1, outcome.attempts());
        assertEquals(List.of(invoice + " 2000 eur"), rows(event));
        awaitTrue("the receipt is delivered", () -> delivered(event) == 1);
        assertEquals(1, RECEIPTS.of(invoice).size());
        assertEquals("billing:" + event + ":effect-1", RECEIPTS.of(invoice).get(0).idempotencyKey());
    }

    @Test
    void aDuplicateIsNotProcessedAgain() throws Exception {
        String event = newId("evt_");
        String invoice = newId("in_");
        assertEquals("completed", hookstile.process(invoicePaid(event, invoice, "1500")).status());

        // Stripe's retry: the same event, signed again at another time.
        assertEquals("duplicate", hookstile.deliver(invoicePaid(event, invoice, "1500")).status());
        assertEquals("duplicate", hookstile.deliver(invoicePaid(event, invoice, "1500")).status());

        EventOutcome after = hookstile.awaitOutcome("billing", event);
        assertEquals(1, after.attempts(), after::toString);
        assertEquals(List.of(invoice + " 1500 eur"), rows(event));
        awaitTrue("the receipt is delivered", () -> delivered(event) == 1);
        assertEquals(1, RECEIPTS.of(invoice).size());
    }

    @Test
    void aTryThatFailsAfterWritingLeavesNoRowAndItsRetryWritesOne() throws Exception {
        String event = newId("evt_");
        String invoice = newId(ThenFails.ONCE);

        EventOutcome outcome = hookstile.process(invoicePaid(event, invoice, "700"));

        // The first try wrote its row (ThenFails checked) and scheduled a receipt, then failed: both rolled back
        // with the claim, and the second try wrote the one row and the one receipt there are.
        assertEquals("completed", outcome.status(), outcome::toString);
        assertEquals(2, outcome.attempts(), outcome::toString);
        assertEquals(List.of(invoice + " 700 eur"), rows(event));
        awaitTrue("the receipt is delivered", () -> delivered(event) == 1);
        assertEquals(1, RECEIPTS.of(invoice).size());
    }

    @Test
    void aDeadEventLeavesNoRowAndItsReplayWritesOne() throws Exception {
        String event = newId("evt_");
        String invoice = newId(ThenFails.DIES);

        EventOutcome dead = hookstile.process(invoicePaid(event, invoice, "900"));

        assertEquals("dead", dead.status(), dead::toString);
        assertTrue(dead.lastError().contains("rejected by the ledger"), dead::toString);
        assertEquals(List.of(), rows(event));
        assertEquals(0, hookstile.forwardings("billing", event).size());

        hookstile.replay("billing", event);
        EventOutcome replayed = hookstile.awaitOutcome("billing", event);

        assertEquals("completed", replayed.status(), replayed::toString);
        assertEquals(List.of(invoice + " 900 eur"), rows(event));
        awaitTrue("the receipt is delivered", () -> delivered(event) == 1);
        assertEquals(1, RECEIPTS.of(invoice).size());
    }

    @Test
    void aMalformedBodyIsDeadWithAReadableReason() throws Exception {
        String event = newId("evt_");
        String invoice = newId("in_");

        EventOutcome dead = hookstile.process(invoicePaid(event, invoice, "\"lots\""));

        assertEquals("dead", dead.status(), dead::toString);
        assertEquals(1, dead.attempts(), "a malformed body is not retried: " + dead);
        assertTrue(dead.lastError().contains("cannot be read as InvoicePaid"), dead::toString);
        assertEquals(List.of(), rows(event));
        assertEquals(0, hookstile.forwardings("billing", event).size(), "no receipt scheduled");
    }

    /** The application's rows for one event: invoice, amount, currency. */
    private static List<String> rows(String eventId) throws Exception {
        try (Connection connection = TestRuntime.database();
             PreparedStatement select = connection.prepareStatement(
                     "SELECT invoice_id, amount_paid, currency FROM paid_invoice WHERE event_id = ?")) {
            select.setString(1, eventId);
            try (ResultSet rows = select.executeQuery()) {
                var found = new ArrayList<String>();
                while (rows.next()) {
                    found.add(rows.getString(1) + " " + rows.getLong(2) + " " + rows.getString(3));
                }
                return found;
            }
        }
    }

    private long delivered(String eventId) {
        return hookstile.forwardings("billing", eventId).getValuesAs(JsonObject.class).stream()
                .filter(d -> "delivered".equals(d.getString("status"))).count();
    }

    private static void awaitTrue(String what, BooleanSupplier condition) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("not within 30 s: " + what);
            }
            Thread.sleep(100);
        }
    }
}
