package dev.hookstile.provider.control;

import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParserFactory;

import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Reads a few top-level fields from a JSON object without building a tree: the body is streamed once, nested values
 * are walked over, and the payload itself is never modified or re-serialised.
 *
 * <p>Nested values are skipped by counting depth, not with {@code JsonParser.skipObject()}: Parsson's skip spins
 * forever on a body truncated inside a nested object, a one-request denial of service. The depth is capped so that
 * a hostile body (10,000 opening brackets) is refused after a few hundred tokens.
 */
final class JsonFields {

    /** Far deeper than any provider's payload nests; deeper is refused as hostile. */
    static final int MAX_DEPTH = 128;

    // Creating a factory looks the JSON-P provider up through the ServiceLoader: do it once, not per request.
    private static final JsonParserFactory PARSERS = Json.createParserFactory(Map.of());

    private JsonFields() {
    }

    /**
     * The string (or number, as text) values of the wanted top-level fields.
     *
     * @throws RejectedDelivery {@link Rejection#INVALID_PAYLOAD} when the body is not a JSON object
     */
    static Map<String, String> topLevel(byte[] body, Set<String> wanted) throws RejectedDelivery {
        var found = new HashMap<String, String>(4);
        try (JsonParser parser = PARSERS.createParser(strictUtf8(body))) {
            if (!parser.hasNext() || parser.next() != JsonParser.Event.START_OBJECT) {
                throw new RejectedDelivery(Rejection.INVALID_PAYLOAD, "the body must be a JSON object");
            }
            int depth = 1;
            String key = null;
            while (parser.hasNext()) {
                JsonParser.Event event = parser.next();
                switch (event) {
                    case START_OBJECT, START_ARRAY -> {
                        if (++depth > MAX_DEPTH) {
                            throw new RejectedDelivery(Rejection.INVALID_PAYLOAD,
                                    "the JSON body nests deeper than " + MAX_DEPTH + " levels");
                        }
                    }
                    case END_OBJECT, END_ARRAY -> {
                        if (--depth == 0) {
                            return found;
                        }
                    }
                    case KEY_NAME -> key = depth == 1 ? parser.getString() : null;
                    case VALUE_STRING, VALUE_NUMBER -> {
                        if (depth == 1 && key != null && wanted.contains(key)) {
                            found.putIfAbsent(key, parser.getString());
                        }
                    }
                    default -> {
                        // true, false, null: nothing we extract
                    }
                }
            }
            throw new RejectedDelivery(Rejection.INVALID_PAYLOAD, "the body is truncated JSON");
        } catch (JsonException | IllegalStateException | java.util.NoSuchElementException e) {
            throw new RejectedDelivery(Rejection.INVALID_PAYLOAD, e.getCause() instanceof CharacterCodingException
                    ? "the body is not valid UTF-8" : "the body is not valid JSON");
        }
    }

    // JSON is UTF-8 (RFC 8259); Parsson's own decoding would silently replace malformed bytes.
    private static Reader strictUtf8(byte[] body) {
        return new InputStreamReader(new ByteArrayInputStream(body), StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT));
    }
}
