-- Notifications to the operator's endpoint (HOOKSTILE_NOTIFY_URL) travel through the outbox as rows of the source
-- '_notify' (no source can be named so), the notification's id as their event_id and its JSON as their body: the
-- outbox's unique key is what makes two instances, or a rerun, schedule one notification once.
--
-- How far the notifier has come, shared by every instance: 'events.dead', the end of the last window of deaths
-- announced; 'processing.behind:<source>', since when the source is behind, NULL while it is not. A row is locked
-- while an instance moves it, so a transition is announced by one instance only.
CREATE TABLE notify_mark (
    name VARCHAR(100)             NOT NULL,
    at   TIMESTAMP WITH TIME ZONE,
    CONSTRAINT notify_mark_pk PRIMARY KEY (name)
);
-- The deaths of a time window, found without reading the history of every processed event: on PostgreSQL only the
-- lines of deaths are indexed, so the line every processed event writes costs this index nothing (H2, the quick
-- start's database, has no partial indexes and indexes every line).
CREATE INDEX event_attempt_deaths ON event_attempt (outcome, at) ${deathsOnly};
