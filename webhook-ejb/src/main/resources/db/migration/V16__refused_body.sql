-- A refused delivery's body, its first 64 KiB, kept only for a source whose operator asked for it
-- (HOOKSTILE_SOURCES_<NAME>_KEEP_REFUSED_BODIES): untrusted input, shown as text. The newest
-- hookstile.refusals.max-kept-bodies (1,000) bodies are kept; older examples keep their size and SHA-256 only.
ALTER TABLE refused_delivery ADD COLUMN body BYTEA;
