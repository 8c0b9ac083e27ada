-- GET /api/destinations: pending and dead forwardings of gh's destination, bounded
SELECT COUNT(*) FROM (SELECT 1 FROM outbox WHERE status = 'pending' AND source = 'gh' AND destination = 'http://127.0.0.1:9/hooks/github' AND effect = 0 LIMIT 10000) bounded;
SELECT COUNT(*) FROM (SELECT 1 FROM outbox WHERE status = 'dead' AND source = 'gh' AND destination = 'http://127.0.0.1:9/hooks/github' AND effect = 0 LIMIT 10000) bounded;
