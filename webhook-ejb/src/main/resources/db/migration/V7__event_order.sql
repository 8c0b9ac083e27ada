-- The last processed event of each order key (a source's _ORDER_KEY), so a handler can tell an event older than it
-- (WebhookEvent.olderThanLastProcessed): a replay of an old event, a dead event replayed after newer ones.
CREATE TABLE event_order (
    source           VARCHAR(63)              NOT NULL,
    order_key        VARCHAR(255)             NOT NULL,
    last_received_at TIMESTAMP WITH TIME ZONE NOT NULL,
    last_event_id    VARCHAR(255)             NOT NULL,
    updated_at       TIMESTAMP WITH TIME ZONE NOT NULL,
    PRIMARY KEY (source, order_key)
);
