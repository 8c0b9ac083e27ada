-- The smoke handler's own table, shipped in its jar in the EAR's lib/: PayaraServerIT checks that Hookstile applied it.
CREATE TABLE smoke_ledger (
    event_id VARCHAR(255) NOT NULL PRIMARY KEY
);
