-- GET /api/events?source=pay&type=invoice. (a prefix)
SELECT source, event_id, provider, type, status, attempts, received_at, processed_at, last_error FROM received_event WHERE source = 'pay' AND type LIKE 'invoice.%' ESCAPE '\' ORDER BY received_at DESC, source DESC, event_id DESC LIMIT 50;
