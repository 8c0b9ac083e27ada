-- GET /api/events?since=...&until=... (one hour, a week ago)
SELECT source, event_id, provider, type, status, attempts, received_at, processed_at, last_error FROM received_event WHERE received_at >= now() - interval '7 days' AND received_at < now() - interval '7 days' + interval '1 hour' ORDER BY received_at DESC, source DESC, event_id DESC LIMIT 50;
