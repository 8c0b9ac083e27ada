-- A destination an operator paused (POST /api/destinations/{source}/pause): its forwardings are held in the outbox,
-- created and counted, never sent, until it is resumed. A row here holds for every instance and survives a restart.
CREATE TABLE destination_pause (
    source      VARCHAR(63)              NOT NULL,
    destination VARCHAR(2000)            NOT NULL,
    paused_at   TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT destination_pause_pk PRIMARY KEY (source, destination)
);
-- A pending forwarding the relay met while its destination was paused: set aside (its next attempt far away, so the
-- relay's walk of the due index never meets it again) and released, due at its creation time, once the destination
-- is no longer paused. Its attempts are untouched: a pause never makes a forwarding dead.
ALTER TABLE outbox ADD COLUMN held BOOLEAN DEFAULT FALSE NOT NULL;
CREATE INDEX outbox_held ON outbox (held, source);
