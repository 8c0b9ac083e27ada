package com.example.billing;

import dev.hookstile.api.PermanentFailure;
import dev.hookstile.api.WebhookEvent;
import dev.hookstile.test.WebhookEvents;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The handler alone, in plain JUnit: no container, an event built by the kit the way Hookstile hands it over. */
class PaidInvoicesTest {

    private final PaidInvoices handler = new PaidInvoices();
    private final List<String> lines = new ArrayList<>();
    private final Logger log = Logger.getLogger(PaidInvoices.class.getName());
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            lines.add(record.getMessage());
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void capture() {
        log.addHandler(capture);
    }

    @AfterEach
    void release() {
        log.removeHandler(capture);
    }

    private static WebhookEvent stripe(String body) {
        return WebhookEvents.stripe("invoice.paid").source("billing").eventId("evt_1NG8Du2eZvKYlo2CUI79vXWy")
                .payload(body).build();
    }

    @Test
    void aPaidInvoiceIsRecordedWithItsAmount() {
        handler.handle(stripe("""
                {"id":"evt_1NG8Du2eZvKYlo2CUI79vXWy","object":"event","type":"invoice.paid",
                 "data":{"object":{"id":"in_1NG8Dt2eZvKYlo2C","object":"invoice","amount_paid":2000,"currency":"usd",
                 "customer":"cus_NeZwdNtLEOXuvB"}}}"""));

        assertEquals(1, lines.size());
        assertTrue(lines.get(0).contains("amount 2000"), lines.get(0));
        assertTrue(lines.get(0).contains("evt_1NG8Du2eZvKYlo2CUI79vXWy"), lines.get(0));
    }

    @Test
    void anEventWithoutAnInvoiceIsAPermanentFailure() {
        var failure = assertThrows(PermanentFailure.class,
                () -> handler.handle(stripe("{\"id\":\"evt_2\",\"type\":\"invoice.paid\",\"data\":{}}")));

        assertTrue(failure.getMessage().contains("no data.object.id"), failure.getMessage());
        assertTrue(lines.isEmpty());
    }

    @Test
    void aMalformedBodyIsAPermanentFailureNotARetry() {
        assertThrows(PermanentFailure.class, () -> handler.handle(stripe("{\"id\":\"evt_3\",")));
        assertTrue(lines.isEmpty());
    }
}
