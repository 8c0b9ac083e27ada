-- The search keys of an event (HOOKSTILE_SOURCES_<NAME>_SEARCH_KEYS, JSON pointers into the body): written with the
-- event's claim, in its transaction, so "every event of customer cus_9" reads an index, newest first, not the bodies.
-- received_at is the event's, copied so the index orders by it. Deleted with the event.
CREATE TABLE event_key (
    source      VARCHAR(63)              NOT NULL,
    event_id    VARCHAR(255)             NOT NULL,
    pointer     VARCHAR(255)             NOT NULL,
    key_value   VARCHAR(255)             NOT NULL,
    received_at TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT event_key_pk PRIMARY KEY (source, event_id, pointer),
    CONSTRAINT event_key_event FOREIGN KEY (source, event_id) REFERENCES received_event (source, event_id)
        ON DELETE CASCADE
);
CREATE INDEX event_key_by_value ON event_key (key_value, received_at, source, event_id);
