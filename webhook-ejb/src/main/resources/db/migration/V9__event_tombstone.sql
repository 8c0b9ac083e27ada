-- What is left of an event once the retention has deleted it: its key, so that a delivery of it captured before the
-- retention (a sender that signs no timestamp can be replayed at any time) is still a duplicate. Kept for
-- HOOKSTILE_RETENTION_TOMBSTONE_DAYS after the event was received, long after its payload and history are gone.
CREATE TABLE event_tombstone (
    source      VARCHAR(63)              NOT NULL,
    event_id    VARCHAR(255)             NOT NULL,
    received_at TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT event_tombstone_pk PRIMARY KEY (source, event_id)
);
-- The tombstones' own retention deletes the oldest first.
CREATE INDEX event_tombstone_received_at ON event_tombstone (received_at);
-- Body deduplication is on by default for several providers now: the retention deletes old fingerprints by time.
CREATE INDEX body_fingerprint_received_at ON body_fingerprint (source, received_at);
