-- GET /api/events?source=tw&type=nothing (a prefix no event has): a page looks at the newest 20,000 events only
-- (RecordedEvents.page: the position of the 20,000th event, then the filter above it) and answers with a cursor.
SELECT extract(epoch FROM received_at) AS floor FROM received_event ORDER BY received_at DESC, source DESC, event_id DESC OFFSET 19999 LIMIT 1 \gset
SELECT source, event_id, provider, type, status, attempts, received_at, processed_at, last_error FROM received_event WHERE source = 'tw' AND type LIKE 'nothing%' ESCAPE '\' AND received_at >= to_timestamp(:floor) ORDER BY received_at DESC, source DESC, event_id DESC LIMIT 50;
