-- GET /api/events?status=dead
SELECT source, event_id, provider, type, status, attempts, received_at, processed_at, last_error FROM received_event WHERE status = 'dead' ORDER BY received_at DESC, source DESC, event_id DESC LIMIT 50;
