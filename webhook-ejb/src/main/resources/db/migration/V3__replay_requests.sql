-- Replay requests that carried an Idempotency-Key header: a retried request with the same key (the operator's
-- client timed out, a proxy retried) replays nothing again. Kept a day.
CREATE TABLE replay_request (
    idempotency_key VARCHAR(255)             NOT NULL,
    source          VARCHAR(63)              NOT NULL,
    event_id        VARCHAR(255)             NOT NULL,
    created_at      TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT replay_request_pk PRIMARY KEY (idempotency_key)
);
CREATE INDEX replay_request_created ON replay_request (created_at);
