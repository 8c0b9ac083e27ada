-- One row per claimed event. The primary key is the dedup guarantee.
-- Kept to SQL that PostgreSQL and H2 (MODE=PostgreSQL) both accept.
CREATE TABLE received_event (
    source       VARCHAR(63)   NOT NULL,
    event_id     VARCHAR(255)  NOT NULL,
    provider     VARCHAR(63)   NOT NULL,
    type         VARCHAR(255)  NOT NULL,
    status       VARCHAR(16)   NOT NULL,
    attempts     INTEGER       NOT NULL,
    received_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    processed_at TIMESTAMP WITH TIME ZONE,
    last_error   VARCHAR(4000),
    headers      VARCHAR(16384) NOT NULL,
    payload      BYTEA         NOT NULL,
    CONSTRAINT received_event_pk PRIMARY KEY (source, event_id)
);
