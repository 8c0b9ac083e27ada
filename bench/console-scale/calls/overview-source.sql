-- GET /api/overview?source=tw
SELECT source, SUM(accepted), SUM(duplicate), SUM(rejected), MAX(last_event_at) FROM ingest_bucket WHERE bucket_start >= now() - interval '1 hour' AND bucket_start < now() + interval '1 day' GROUP BY source;
SELECT source, SUM(accepted), SUM(duplicate), SUM(rejected), MAX(last_event_at) FROM ingest_bucket WHERE bucket_start >= (now() - interval '1 day') AND bucket_start < date_trunc('hour', now() - interval '1 day') + interval '1 hour' GROUP BY source;
SELECT source, SUM(accepted), SUM(duplicate), SUM(rejected), MAX(last_event_at) FROM ingest_hour WHERE hour_start >= date_trunc('hour', now() - interval '1 day') + interval '1 hour' AND hour_start < now() + interval '1 day' GROUP BY source;
SELECT COUNT(*) FROM (SELECT 1 FROM received_event WHERE source = 'tw' AND status = 'received' LIMIT 10000) bounded;
SELECT COUNT(*) FROM (SELECT 1 FROM received_event WHERE source = 'tw' AND status = 'retrying' LIMIT 10000) bounded;
SELECT COUNT(*) FROM (SELECT 1 FROM received_event WHERE source = 'tw' AND status = 'dead' LIMIT 10000) bounded;
SELECT received_at FROM received_event WHERE source = 'tw' AND status = 'received' ORDER BY received_at LIMIT 1;
SELECT received_at FROM received_event WHERE source = 'tw' AND status = 'retrying' ORDER BY received_at LIMIT 1;
SELECT received_at FROM received_event WHERE source = 'tw' AND status = 'received' ORDER BY received_at DESC LIMIT 1;
SELECT received_at FROM received_event WHERE source = 'tw' AND status = 'completed' ORDER BY received_at DESC LIMIT 1;
SELECT received_at FROM received_event WHERE source = 'tw' AND status = 'ignored' ORDER BY received_at DESC LIMIT 1;
SELECT received_at FROM received_event WHERE source = 'tw' AND status = 'retrying' ORDER BY received_at DESC LIMIT 1;
SELECT received_at FROM received_event WHERE source = 'tw' AND status = 'dead' ORDER BY received_at DESC LIMIT 1;
SELECT bucket_start, SUM(accepted), SUM(duplicate), SUM(rejected) FROM ingest_bucket WHERE bucket_start >= date_trunc('minute', now()) - interval '15 minutes' AND bucket_start < date_trunc('minute', now()) AND source = 'tw' GROUP BY bucket_start;
