-- The W3C traceparent of the try that scheduled a forwarding or an effect: its request carries the trace on.
ALTER TABLE outbox ADD COLUMN trace_parent VARCHAR(55);
