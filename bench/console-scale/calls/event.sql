-- GET /api/events/{source}/{eventId}: the event (payload included) and its history
SELECT * FROM received_event WHERE source = 'gh' AND event_id = 'gh-' || lpad(to_hex(500000 * 2654435761 % 4294967296), 8, '0') || '-500000';
SELECT * FROM event_attempt WHERE source = 'gh' AND event_id = 'gh-' || lpad(to_hex(500000 * 2654435761 % 4294967296), 8, '0') || '-500000' ORDER BY attempt;
