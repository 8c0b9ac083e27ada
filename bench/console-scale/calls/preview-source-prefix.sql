-- POST /api/replays/preview {source: tw, status: completed, type: deliv} (a prefix within a small source)
SELECT COUNT(*) FROM (SELECT 1 FROM received_event WHERE status = 'completed' AND source = 'tw' AND type LIKE 'deliv%' ESCAPE '\' LIMIT 100000) bounded;
