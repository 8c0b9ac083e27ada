package dev.hookstile.provider.control;

import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParserFactory;

import java.io.ByteArrayInputStream;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Reads a few top-level fields from a JSON object without building a tree: the body is streamed once, nested values
 * are skipped, and the payload itself is never modified or re-serialised.
 */
final class JsonFields {

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
        try (JsonParser parser = PARSERS.createParser(new ByteArrayInputStream(body))) {
            if (!parser.hasNext() || parser.next() != JsonParser.Event.START_OBJECT) {
                throw new RejectedDelivery(Rejection.INVALID_PAYLOAD, "the body must be a JSON object");
            }
            while (parser.hasNext()) {
                JsonParser.Event event = parser.next();
                if (event == JsonParser.Event.END_OBJECT) {
                    return found;
                }
                String key = parser.getString();
                JsonParser.Event value = parser.next();
                switch (value) {
                    case VALUE_STRING, VALUE_NUMBER -> {
                        if (wanted.contains(key)) {
                            found.putIfAbsent(key, parser.getString());
                        }
                    }
                    case START_OBJECT -> parser.skipObject();
                    case START_ARRAY -> parser.skipArray();
                    default -> {
                        // true, false, null: nothing we extract
                    }
                }
            }
            throw new RejectedDelivery(Rejection.INVALID_PAYLOAD, "the body is truncated JSON");
        } catch (JsonException | IllegalStateException | java.util.NoSuchElementException e) {
            throw new RejectedDelivery(Rejection.INVALID_PAYLOAD, "the body is not valid JSON");
        }
    }
}
