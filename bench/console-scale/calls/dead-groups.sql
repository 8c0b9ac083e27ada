-- GET /api/dead-groups: the newest 10,001 dead events (of 6,000 here: all of them), grouped in Java
SELECT source, type, last_error, COALESCE(updated_at, received_at) FROM received_event WHERE status = 'dead' ORDER BY received_at DESC LIMIT 10001;
