-- GET /api/dead-groups?source=gh
SELECT source, type, last_error, COALESCE(updated_at, received_at) FROM received_event WHERE status = 'dead' AND source = 'gh' ORDER BY received_at DESC LIMIT 10001;
