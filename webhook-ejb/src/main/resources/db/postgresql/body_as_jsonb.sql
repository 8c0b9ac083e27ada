CREATE FUNCTION hookstile_body_jsonb(body BYTEA) RETURNS JSONB LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    IF body IS NULL OR length(body) = 0 OR get_byte(body, 0) <> 123 THEN
        RETURN NULL;
    END IF;
    RETURN convert_from(body, 'UTF8')::jsonb;
EXCEPTION WHEN others THEN
    RETURN NULL;
END
$$;
