-- A body as jsonb for GET /api/events?match= (a jsonb containment), or NULL for one that is not a JSON object: not
-- JSON, not UTF-8, or holding what jsonb refuses (a \u0000 escape). Never an error: a sender's body must not break an
-- operator's search. PostgreSQL only; on the embedded database the search reads the bodies in Java (ContentSearch).
${bodyAsJsonb}
