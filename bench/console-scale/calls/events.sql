-- GET /api/events (no filter, the console's first page)
SELECT source, event_id, provider, type, status, attempts, received_at, processed_at, last_error FROM received_event ORDER BY received_at DESC, source DESC, event_id DESC LIMIT 50;
