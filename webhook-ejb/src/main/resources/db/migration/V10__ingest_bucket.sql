-- What ingest answered, per 10-second bucket, source and instance: the operator overview's "last hour", "last day"
-- and its 15-minute chart, without counting received_event. Each instance counts in memory on the request path and
-- adds its deltas here every few seconds (IngestTally), so counts survive restarts and sum across instances.
-- Buckets older than two days are deleted. Source '_other' holds refusals no configured source can be named for.
CREATE TABLE ingest_bucket (
    bucket_start  TIMESTAMP WITH TIME ZONE NOT NULL,
    source        VARCHAR(63)              NOT NULL,
    instance      VARCHAR(64)              NOT NULL,
    accepted      BIGINT                   NOT NULL,
    duplicate     BIGINT                   NOT NULL,
    rejected      BIGINT                   NOT NULL,
    -- The newest event accepted in the bucket: the overview's "last event" without a scan of received_event.
    last_event_at TIMESTAMP WITH TIME ZONE,
    CONSTRAINT ingest_bucket_pk PRIMARY KEY (bucket_start, source, instance)
);

-- The operator API's index on received_event is V11's.
