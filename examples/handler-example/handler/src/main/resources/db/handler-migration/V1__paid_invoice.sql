-- The application's own table, shipped in the handler's jar: Hookstile applies db/handler-migration at start, after
-- its own migrations, with a history of its own (handler_schema_history), on the embedded H2 and on PostgreSQL alike,
-- so this is SQL both accept. The unit test runs this file on H2.
-- No unique key on the invoice: Hookstile runs the handler once per event, and the IT counts rows to prove it.
CREATE TABLE paid_invoice (
    event_id    VARCHAR(255)             NOT NULL,
    invoice_id  VARCHAR(255)             NOT NULL,
    amount_paid BIGINT                   NOT NULL,
    currency    VARCHAR(3)               NOT NULL,
    recorded_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT CURRENT_TIMESTAMP
);
