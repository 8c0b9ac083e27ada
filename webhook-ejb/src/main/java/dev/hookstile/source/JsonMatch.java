package dev.hookstile.source;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import java.io.StringReader;
import java.util.Map;

/**
 * A JSON fragment an event's body must contain, with PostgreSQL's {@code jsonb @>} rules, so a search answers the
 * same on the embedded database: an object contains another when it has each of its keys with a value that contains
 * that key's value; an array contains another when each of the other's elements is contained in one of its own;
 * scalars are equal (numbers by value). {@code {"data":{"object":{"status":"failed"}}}} matches every body with that
 * status, whatever else it holds.
 */
public final class JsonMatch {

    /** A fragment is a question, not a document. */
    public static final int MAX_LENGTH = 4096;
    private static final int MAX_DEPTH = 32;

    private final JsonObject fragment;

    private JsonMatch(JsonObject fragment) {
        this.fragment = fragment;
    }

    /**
     * @throws IllegalArgumentException when the text is not a JSON object of at most {@link #MAX_LENGTH} characters
     */
    public static JsonMatch parse(String text) {
        if (text.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("match must be at most " + MAX_LENGTH + " characters of JSON");
        }
        JsonValue value;
        try (var reader = Json.createReader(new StringReader(text))) {
            value = reader.readValue();
        } catch (JsonException | IllegalStateException e) {
            throw new IllegalArgumentException("match must be a JSON object, e.g. {\"data\":{\"object\":"
                    + "{\"status\":\"failed\"}}}");
        }
        if (!(value instanceof JsonObject object) || depth(object, 0) > MAX_DEPTH) {
            throw new IllegalArgumentException("match must be a JSON object nested at most " + MAX_DEPTH + " deep");
        }
        return new JsonMatch(object);
    }

    public JsonObject fragment() {
        return fragment;
    }

    /** The fragment as compact JSON: what PostgreSQL's {@code CAST(? AS jsonb)} receives. */
    public String json() {
        return fragment.toString();
    }

    /** Whether this body, parsed, contains the fragment; {@code false} for a body that is not a JSON object. */
    public boolean matches(byte[] body) {
        if (body == null || body.length == 0 || body[0] != '{') {
            return false;
        }
        try (var reader = Json.createReader(new java.io.ByteArrayInputStream(body))) {
            return contains(reader.readValue(), fragment);
        } catch (RuntimeException notJson) {
            // Not only JsonException: Parsson refuses a body nested deeper than it allows with a bare
            // RuntimeException. A sender's body is no match, never the search's failure.
            return false;
        }
    }

    static boolean contains(JsonValue document, JsonValue wanted) {
        if (document instanceof JsonObject object && wanted instanceof JsonObject fields) {
            for (Map.Entry<String, JsonValue> field : fields.entrySet()) {
                JsonValue value = object.get(field.getKey());
                if (value == null || !contains(value, field.getValue())) {
                    return false;
                }
            }
            return true;
        }
        if (document instanceof JsonArray array && wanted instanceof JsonArray elements) {
            for (JsonValue element : elements) {
                if (array.stream().noneMatch(own -> contains(own, element))) {
                    return false;
                }
            }
            return true;
        }
        if (document instanceof JsonNumber number && wanted instanceof JsonNumber other) {
            return number.bigDecimalValue().compareTo(other.bigDecimalValue()) == 0;
        }
        return document.getValueType() == wanted.getValueType()
                && !(document instanceof JsonObject) && !(document instanceof JsonArray) && document.equals(wanted);
    }

    private static int depth(JsonValue value, int depth) {
        if (depth > MAX_DEPTH) {
            return depth;
        }
        if (value instanceof JsonObject object) {
            return object.values().stream().mapToInt(v -> depth(v, depth + 1)).max().orElse(depth + 1);
        }
        if (value instanceof JsonArray array) {
            return array.stream().mapToInt(v -> depth(v, depth + 1)).max().orElse(depth + 1);
        }
        return depth;
    }
}
