-- GET /api/events?type=orders/ (a prefix, no source: shop's types, 15% of events)
SELECT source, event_id, provider, type, status, attempts, received_at, processed_at, last_error FROM received_event WHERE type LIKE 'orders/%' ESCAPE '\' ORDER BY received_at DESC, source DESC, event_id DESC LIMIT 50;
