package com.example.billing;

import jakarta.json.bind.annotation.JsonbProperty;

/**
 * The part of Stripe's {@code invoice.paid} event this application reads, bound by {@code event.payloadAs}: JSON-B
 * ignores every other property of the event.
 */
public record InvoicePaid(Data data) {

    public record Data(Invoice object) {
    }

    public record Invoice(String id, @JsonbProperty("amount_paid") long amountPaid, String currency) {
    }

    /** The invoice, or {@code null} when the event carries none. */
    public Invoice invoice() {
        return data == null ? null : data.object();
    }
}
