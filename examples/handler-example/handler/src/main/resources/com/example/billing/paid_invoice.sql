-- The application's own table, created the way the application creates its tables (here by the tests; in
-- production by the application's own Flyway or by hand): Hookstile's migrations manage only Hookstile's.
-- No unique key on the invoice: Hookstile runs the handler once per event, and the IT counts rows to prove it.
CREATE TABLE IF NOT EXISTS paid_invoice (
    event_id    VARCHAR(255)             NOT NULL,
    invoice_id  VARCHAR(255)             NOT NULL,
    amount_paid BIGINT                   NOT NULL,
    currency    VARCHAR(3)               NOT NULL,
    recorded_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT CURRENT_TIMESTAMP
)
