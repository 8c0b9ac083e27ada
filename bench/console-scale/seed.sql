-- Seeds the console-scale database: 1,000,000 events over four sources and 30 days, a realistic mix of statuses
-- (mostly completed, some ignored, thousands dead in a few failure groups, retrying and queued ones), one history line
-- per event, an outbox of 200,000 forwardings and 2 days of ingest buckets. Run by bench/console-scale/run after the
-- migrations. Deterministic (no random()): the same database every run.
\set ON_ERROR_STOP on
SET synchronous_commit = off;

-- i: 1..1,000,000. Source by i mod 20: gh 10/20, pay 6/20, shop 3/20, tw 1/20. Newest is i = 1,000,000 (now).
CREATE TEMP TABLE seed AS
SELECT i,
       CASE WHEN i % 20 < 10 THEN 'gh' WHEN i % 20 < 16 THEN 'pay' WHEN i % 20 < 19 THEN 'shop' ELSE 'tw' END AS source,
       now() - ((1000000 - i) * interval '2592 milliseconds') AS at
FROM generate_series(1, 1000000) AS i;

INSERT INTO received_event (source, event_id, provider, type, status, attempts, received_at, processed_at, updated_at,
                            last_error, headers, payload, replay_base)
SELECT s.source,
       s.source || '-' || lpad(to_hex(s.i * 2654435761 % 4294967296), 8, '0') || '-' || s.i,
       CASE s.source WHEN 'gh' THEN 'github' WHEN 'pay' THEN 'stripe' WHEN 'shop' THEN 'shopify' ELSE 'twilio' END,
       CASE s.source
           WHEN 'gh' THEN (ARRAY['push', 'pull_request', 'issues', 'issue_comment', 'workflow_run', 'check_suite'])[1 + s.i % 6]
           WHEN 'pay' THEN (ARRAY['invoice.paid', 'invoice.payment_failed', 'customer.created', 'charge.succeeded', 'payment_intent.succeeded'])[1 + s.i % 5]
           WHEN 'shop' THEN (ARRAY['orders/create', 'orders/paid', 'products/update'])[1 + s.i % 3]
           ELSE (ARRAY['delivered', 'sent', 'failed'])[1 + s.i % 3] END,
       st.status,
       CASE st.status WHEN 'dead' THEN 8 WHEN 'retrying' THEN 3 ELSE 1 END,
       s.at,
       CASE WHEN st.status IN ('completed', 'ignored') THEN s.at + interval '40 milliseconds' END,
       s.at + interval '40 milliseconds',
       CASE st.status
           WHEN 'dead' THEN (ARRAY['TransientFailure: connection refused', 'PermanentFailure: customer 42 does not exist',
                                   'SQLException: deadlock detected (40P01)', 'TimeoutException: handler took longer than 60 s'])[1 + s.i % 4]
           WHEN 'retrying' THEN 'TransientFailure: connection refused' END,
       '{"content-type":"application/json","user-agent":"GitHub-Hookshot/044aadd","x-github-delivery":"'
           || s.i || '","x-github-event":"push","x-hub-signature-256":"[redacted]"}',
       convert_to('{"ref":"refs/heads/main","seq":' || s.i || ',"repository":{"id":1296269,"full_name":"octo-org/hookstile",'
           || '"owner":{"login":"octo-org","id":6811672}},"pusher":{"name":"octocat","email":"octocat@github.com"},'
           || '"head_commit":{"id":"59b20b8d5c6ff8d09518454d4dd8b7b30f095ab5","message":"Update the README",'
           || '"timestamp":"2025-01-15T10:22:31Z","author":{"name":"Mona Octocat","email":"octocat@github.com"}},'
           || '"commits":[{"id":"59b20b8d5c6ff8d09518454d4dd8b7b30f095ab5","added":[],"removed":[],'
           || '"modified":["README.md","bench/run"]}],"padding":"' || repeat('-', 200) || '"}', 'UTF8'),
       0
FROM seed s
CROSS JOIN LATERAL (SELECT CASE
           -- 6,000 dead: spread over the month (1 in 167), and a burst in the last hour on gh (an outage).
           WHEN s.i % 167 = 0 THEN 'dead'
           WHEN s.i > 998600 AND s.source = 'gh' AND s.i % 3 = 0 THEN 'dead'
           -- 2,000 retrying and 500 queued by a replay, all in the last two hours.
           WHEN s.i > 988000 AND s.i % 6 = 1 THEN 'retrying'
           WHEN s.i > 990000 AND s.i % 20 = 7 THEN 'received'
           WHEN s.i % 50 = 3 THEN 'ignored'
           ELSE 'completed' END AS status) st;

INSERT INTO event_attempt (source, event_id, attempt, outcome, failure, error, at)
SELECT e.source, e.event_id, 1, CASE WHEN e.status IN ('dead', 'retrying') THEN e.status ELSE 'completed' END,
       CASE WHEN e.status IN ('dead', 'retrying') THEN 'transient' END, e.last_error, e.received_at
FROM received_event e;

-- The outbox: gh forwards every event to one destination (200,000 rows: delivered, a few hundred pending and dead).
INSERT INTO outbox (source, event_id, destination, status, attempts, next_attempt_at, created_at, delivered_at, last_error)
SELECT e.source, e.event_id, 'http://127.0.0.1:9/hooks/github',
       CASE WHEN n % 400 = 0 THEN 'dead' WHEN n % 250 = 1 THEN 'pending' ELSE 'delivered' END,
       1, e.received_at, e.received_at, e.received_at,
       CASE WHEN n % 400 = 0 THEN '500 Internal Server Error' END
FROM (SELECT source, event_id, received_at, row_number() OVER () AS n FROM received_event
      WHERE source = 'gh' AND status = 'completed' ORDER BY received_at DESC LIMIT 200000) e;

-- Search keys: every pay event's customer (/data/object/customer), 5,000 customers of about 120 events each over the
-- month, and customer cus_rare with one event 29 days ago: what HOOKSTILE_SOURCES_PAY_SEARCH_KEYS writes.
INSERT INTO event_key (source, event_id, pointer, key_value, received_at)
SELECT e.source, e.event_id, '/data/object/customer',
       CASE WHEN e.received_at < now() - interval '29 days' AND e.received_at >= now() - interval '29 days' - interval '3 seconds'
            THEN 'cus_rare' ELSE 'cus_' || (abs(hashtext(e.event_id)) % 5000) END,
       e.received_at
FROM received_event e WHERE e.source = 'pay';

-- Two days of ingest buckets, one instance, every source: what two days of the flusher leave behind.
INSERT INTO ingest_bucket (bucket_start, source, instance, accepted, duplicate, rejected, last_event_at)
SELECT b.t, src.source, 'seed-instance', 4 + (extract(epoch FROM b.t)::bigint % 7), extract(epoch FROM b.t)::bigint % 3,
       CASE WHEN extract(epoch FROM b.t)::bigint % 10 = 0 THEN 1 ELSE 0 END, b.t + interval '9 seconds'
FROM generate_series(date_trunc('minute', now()) - interval '2 days', now(), interval '10 seconds') AS b(t)
CROSS JOIN (VALUES ('gh'), ('pay'), ('shop'), ('tw'), ('_other')) AS src(source);

INSERT INTO ingest_hour (hour_start, source, instance, accepted, duplicate, rejected, last_event_at)
SELECT date_trunc('hour', bucket_start), source, instance, SUM(accepted), SUM(duplicate), SUM(rejected), MAX(last_event_at)
FROM ingest_bucket GROUP BY 1, 2, 3;

VACUUM ANALYZE received_event;
VACUUM ANALYZE event_key;
VACUUM ANALYZE event_attempt;
VACUUM ANALYZE outbox;
VACUUM ANALYZE ingest_bucket;
VACUUM ANALYZE ingest_hour;
