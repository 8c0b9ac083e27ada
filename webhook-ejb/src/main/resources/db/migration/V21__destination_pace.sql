-- A destination's pace (HOOKSTILE_SOURCES_<NAME>_DESTINATION_RATE): a bucket of tokens every instance's relay takes
-- from under a row lock before it sends, refilled at the rate since refilled_at, holding at most one second's worth.
-- The database is what the instances share, so together they never exceed the rate. booked_until: the due time
-- given to the last forwarding deferred beyond the bucket, so that the next ones deferred, by any turn or instance,
-- queue after it instead of all coming due at once.
CREATE TABLE destination_pace (
    source      VARCHAR(63)              NOT NULL,
    destination VARCHAR(2000)            NOT NULL,
    tokens      DOUBLE PRECISION         NOT NULL,
    refilled_at TIMESTAMP WITH TIME ZONE NOT NULL,
    booked_until TIMESTAMP WITH TIME ZONE,
    CONSTRAINT destination_pace_pk PRIMARY KEY (source, destination)
);
