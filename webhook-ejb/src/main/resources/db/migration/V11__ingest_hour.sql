-- The overview's "last day" without adding up 8,640 ten-second buckets per source and instance: the same deltas,
-- added at the same time into hourly buckets (IngestBuckets). The day is then the hours after its first hour, plus
-- the ten-second buckets of that first, partial hour. Kept two days, like ingest_bucket.
CREATE TABLE ingest_hour (
    hour_start    TIMESTAMP WITH TIME ZONE NOT NULL,
    source        VARCHAR(63)              NOT NULL,
    instance      VARCHAR(64)              NOT NULL,
    accepted      BIGINT                   NOT NULL,
    duplicate     BIGINT                   NOT NULL,
    rejected      BIGINT                   NOT NULL,
    last_event_at TIMESTAMP WITH TIME ZONE,
    CONSTRAINT ingest_hour_pk PRIMARY KEY (hour_start, source, instance)
);

-- The operator API's counts and lists by status and source: how many events a source has in a status, bounded to
-- 10,000 (EventCounts), its oldest waiting and newest event, its dead events newest first, a list filtered by source
-- and status, and with the type, a bounded count of a type prefix (a replay's preview) from the index alone. Without
-- it, a bounded count of a small source's completed events walked the primary key and read the table (about 200 ms
-- each at a million events), and the former exact count read every row (0.5 to 1.1 s). It costs every claim one more
-- index entry: measured in docs/benchmarks.md ("The operator console at 1 million events"). A partial index over the
-- unfinished statuses only was measured too: it cannot bound the counts of completed and ignored events.
-- The status comes FIRST on purpose: an index that begins with the source is one the planner may take for the
-- ingest's duplicate lookup (source = ? AND event_id IN (...)) instead of the primary key, from statistics taken
-- while the table was small; its cached generic plan then walked every event of the source on every lookup (measured:
-- 577 million index entries read for 25,000 lookups, acks down from 3,900/s to 240/s). Every statement that uses this
-- index names a status.
DROP INDEX IF EXISTS received_event_by_source;
CREATE INDEX received_event_by_status_and_source ON received_event (status, source, received_at, type);
