-- POST /api/replays/preview {status: completed} (the worst case: 100,000 of 970,000 counted)
SELECT COUNT(*) FROM (SELECT 1 FROM received_event WHERE status = 'completed' LIMIT 100000) bounded;
