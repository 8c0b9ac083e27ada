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

-- The operator API's counts and lists by source: how many events a source has in a status, bounded to 10,000
-- (EventCounts), its oldest waiting event, its dead events newest first, a list filtered by source and status. Without
-- it, a bounded count of a small source's completed events walked the primary key and read the table (about 200 ms
-- each at a million events), and the former exact count read every row (0.5 to 1.1 s). It costs every claim one more
-- index entry: measured in docs/benchmarks.md ("The operator console at 1 million events"). A partial index over the
-- unfinished statuses only was measured too: it cannot bound the counts of completed and ignored events.
CREATE INDEX received_event_by_source ON received_event (source, status, received_at);
