-- GET /api/events?source=tw&status=completed
SELECT source, event_id, provider, type, status, attempts, received_at, processed_at, last_error FROM received_event WHERE source = 'tw' AND status = 'completed' ORDER BY received_at DESC, source DESC, event_id DESC LIMIT 50;
