-- GET /api/events?source=tw (the smallest source: 5% of events)
SELECT source, event_id, provider, type, status, attempts, received_at, processed_at, last_error FROM received_event WHERE source = 'tw' ORDER BY received_at DESC, source DESC, event_id DESC LIMIT 50;
