-- POST /api/replays/preview {source: gh, type: push, typeExact: true, error: ...} (a dead group)
SELECT COUNT(*) FROM (SELECT 1 FROM received_event WHERE status = 'dead' AND source = 'gh' AND type = 'push' AND last_error = 'TransientFailure: connection refused' LIMIT 100000) bounded;
