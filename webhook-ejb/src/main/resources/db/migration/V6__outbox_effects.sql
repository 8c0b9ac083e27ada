-- Effects that handlers schedule through dev.hookstile.api.Outbox, beside the source's forwarding (effect 0): the
-- handler's n-th effect of an event, with its own body. Unique per event, URL and n, so a replay that runs the
-- handler again schedules nothing twice.
ALTER TABLE outbox ADD COLUMN effect INTEGER DEFAULT 0 NOT NULL;
ALTER TABLE outbox ADD COLUMN content_type VARCHAR(255);
ALTER TABLE outbox ADD COLUMN body BYTEA;
ALTER TABLE outbox DROP CONSTRAINT outbox_once;
ALTER TABLE outbox ADD CONSTRAINT outbox_once UNIQUE (source, event_id, destination, effect);
