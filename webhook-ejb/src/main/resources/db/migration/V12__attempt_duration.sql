-- How long each try took, from its start to its outcome, in milliseconds: the console's attempts timeline shows it.
-- Nullable, no default: lines written before this version have none, and neither has a failure recorded outside a
-- try (a message no delivery could read, the broker giving up). Adding a nullable column without a default rewrites
-- nothing on PostgreSQL, whatever the table's size.
ALTER TABLE event_attempt ADD COLUMN duration_millis INTEGER;
