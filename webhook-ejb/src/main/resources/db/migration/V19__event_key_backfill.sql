-- The operator's back-fill of a source's search keys for the events received before they were configured
-- (POST /api/search-keys/backfill): one row per source, its position the last event done, oldest first, so a restart
-- or another instance goes on from there. Instances advance it by compare-and-set on the position.
CREATE TABLE event_key_backfill (
    source            VARCHAR(63)              NOT NULL,
    status            VARCHAR(16)              NOT NULL,
    until_received_at TIMESTAMP WITH TIME ZONE NOT NULL,
    after_received_at TIMESTAMP WITH TIME ZONE,
    after_event_id    VARCHAR(255),
    scanned           BIGINT                   NOT NULL,
    written           BIGINT                   NOT NULL,
    started_at        TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at        TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT event_key_backfill_pk PRIMARY KEY (source)
);
