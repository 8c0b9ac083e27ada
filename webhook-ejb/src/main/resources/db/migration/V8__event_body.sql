-- A body that several events share (the events of one Meta delivery, up to HOOKSTILE_INGEST_MAX_EVENTS_PER_DELIVERY of
-- them), stored once under its hex SHA-256 instead of in each event's row: a signed delivery of a thousand events
-- writes its body once, not a thousand times. An event's row holds either its payload or the digest of its body.
CREATE TABLE event_body (
    digest     VARCHAR(64)              NOT NULL,
    body       BYTEA                    NOT NULL,
    created_at TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT event_body_pk PRIMARY KEY (digest)
);
ALTER TABLE received_event ALTER COLUMN payload DROP NOT NULL;
ALTER TABLE received_event ADD COLUMN body_digest VARCHAR(64);
-- The key makes a body's removal by the retention wait for (and then fail on) a claim that refers to it.
ALTER TABLE received_event ADD CONSTRAINT received_event_body FOREIGN KEY (body_digest) REFERENCES event_body (digest);
-- Which events still use a body, for the retention and the key's check. On PostgreSQL only the rows that have one are
-- indexed, so the events that keep their own payload (nearly all) cost this index nothing.
CREATE INDEX received_event_by_body ON received_event (body_digest) ${sharedBodiesOnly};
