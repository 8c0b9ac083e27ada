package com.example.billing;

import dev.hookstile.api.Outbox;
import dev.hookstile.api.PermanentFailure;
import dev.hookstile.api.WebhookEvent;
import dev.hookstile.test.WebhookEvents;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The handler alone, in plain JUnit: no container, an event built by the kit the way Hookstile hands it over, the
 * application's table in an in-memory database and an outbox that only remembers what was scheduled. What commits
 * with the claim, and what a rollback undoes, is the IT's to show ({@code PaidInvoicesIT}).
 */
class PaidInvoicesTest {

    private static final URI RECEIPTS = URI.create("https://mail.example.test/receipts");

    private final JdbcDataSource database = new JdbcDataSource();
    private final List<String> scheduled = new ArrayList<>();
    private final Outbox outbox = (url, contentType, body) ->
            scheduled.add(url + " " + contentType + " " + new String(body, StandardCharsets.UTF_8));
    private PaidInvoices handler;

    @BeforeEach
    void freshTable() throws SQLException, IOException {
        database.setURL("jdbc:h2:mem:" + UUID.randomUUID() + ";MODE=PostgreSQL;DB_CLOSE_DELAY=-1");
        // The migration Hookstile applies at start, run here as it is.
        try (InputStream schema = PaidInvoices.class.getResourceAsStream("/db/handler-migration/V1__paid_invoice.sql");
             Connection connection = database.getConnection();
             Statement statement = connection.createStatement()) {
            statement.execute(new String(schema.readAllBytes(), StandardCharsets.UTF_8));
        }
        handler = new PaidInvoices(database, outbox, Optional.of(RECEIPTS));
    }

    private static WebhookEvent stripe(String body) {
        return WebhookEvents.stripe("invoice.paid").source("billing").eventId("evt_1NG8Du2eZvKYlo2CUI79vXWy")
                .payload(body).build();
    }

    private List<String> rows() throws SQLException {
        var rows = new ArrayList<String>();
        try (Connection connection = database.getConnection();
             Statement statement = connection.createStatement();
             ResultSet result = statement.executeQuery(
                     "SELECT event_id, invoice_id, amount_paid, currency FROM paid_invoice")) {
            while (result.next()) {
                rows.add(result.getString(1) + " " + result.getString(2) + " " + result.getLong(3) + " "
                        + result.getString(4));
            }
        }
        return rows;
    }

    @Test
    void aPaidInvoiceIsRecordedAndItsReceiptScheduled() throws Exception {
        handler.handle(stripe("""
                {"id":"evt_1NG8Du2eZvKYlo2CUI79vXWy","object":"event","type":"invoice.paid",
                 "data":{"object":{"id":"in_1NG8Dt2eZvKYlo2C","object":"invoice","amount_paid":2000,"currency":"usd",
                 "customer":"cus_NeZwdNtLEOXuvB"}}}"""));

        assertEquals(List.of("evt_1NG8Du2eZvKYlo2CUI79vXWy in_1NG8Dt2eZvKYlo2C 2000 usd"), rows());
        assertEquals(List.of(RECEIPTS + " application/json "
                + "{\"template\":\"receipt\",\"invoice\":\"in_1NG8Dt2eZvKYlo2C\",\"amount\":2000,\"currency\":\"usd\"}"),
                scheduled);
    }

    @Test
    void withoutAReceiptsServiceTheInvoiceIsRecordedAndNoReceiptScheduled() throws Exception {
        handler = new PaidInvoices(database, outbox, Optional.empty());

        handler.handle(stripe("""
                {"id":"evt_1NG8Du2eZvKYlo2CUI79vXWy","object":"event","type":"invoice.paid",
                 "data":{"object":{"id":"in_1NG8Dt2eZvKYlo2C","object":"invoice","amount_paid":2000,"currency":"usd"}}}"""));

        assertEquals(List.of("evt_1NG8Du2eZvKYlo2CUI79vXWy in_1NG8Dt2eZvKYlo2C 2000 usd"), rows());
        assertEquals(List.of(), scheduled);
    }

    @Test
    void anEventWithoutAnInvoiceIsAPermanentFailureThatRecordsNothing() throws SQLException {
        var failure = assertThrows(PermanentFailure.class,
                () -> handler.handle(stripe("{\"id\":\"evt_2\",\"type\":\"invoice.paid\",\"data\":{}}")));

        assertTrue(failure.getMessage().contains("no data.object.id"), failure.getMessage());
        assertEquals(List.of(), rows());
        assertEquals(List.of(), scheduled);
    }

    @Test
    void aMalformedBodyIsAPermanentFailureNotARetry() throws SQLException {
        var failure = assertThrows(PermanentFailure.class, () -> handler.handle(stripe("""
                {"id":"evt_3","type":"invoice.paid","data":{"object":{"id":"in_3","amount_paid":"lots"}}}""")));

        assertTrue(failure.getMessage().contains("cannot be read as InvoicePaid"), failure.getMessage());
        assertEquals(List.of(), rows());
        assertEquals(List.of(), scheduled);
    }
}
