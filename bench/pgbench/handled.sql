-- The bench handler's table: one row per handled event (dev.hookstile.bench.HandledRow in Hookstile's bench WAR; the
-- plain receiver's HandledRow creates the same table in its own database). bench/run creates it in Hookstile's and
-- pgbench's databases.
CREATE TABLE IF NOT EXISTS bench_handled (
    source     text        NOT NULL,
    event_id   text        NOT NULL,
    handled_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (source, event_id)
);
