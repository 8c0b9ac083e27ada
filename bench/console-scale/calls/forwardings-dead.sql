-- GET /api/forwardings?status=dead
SELECT o.id, o.source, o.event_id, e.type, o.destination, o.status, o.attempts, o.created_at, o.next_attempt_at, o.delivered_at, o.last_error, o.effect FROM outbox o LEFT JOIN received_event e ON e.source = o.source AND e.event_id = o.event_id WHERE 1 = 1 AND o.status = 'dead' ORDER BY o.id DESC LIMIT 50;
