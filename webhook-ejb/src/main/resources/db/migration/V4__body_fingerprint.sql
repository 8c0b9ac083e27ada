-- Sources that deduplicate on the body too (HOOKSTILE_SOURCES_<NAME>_BODY_DEDUP_WINDOW_SECONDS): the SHA-256 of
-- each processed body and the event that owns it. The primary key is what makes two concurrent copies of one body
-- under different ids wait for each other. One row per distinct body: a body seen again after the window hands
-- its row to the new event.
CREATE TABLE body_fingerprint (
    source      VARCHAR(63)              NOT NULL,
    sha256      BYTEA                    NOT NULL,
    event_id    VARCHAR(255)             NOT NULL,
    received_at TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT body_fingerprint_pk PRIMARY KEY (source, sha256)
);
