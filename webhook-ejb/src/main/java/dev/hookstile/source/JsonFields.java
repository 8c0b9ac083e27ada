package dev.hookstile.source;

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
public final class JsonFields {

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
    public static Map<String, String> topLevel(byte[] body, Set<String> wanted) throws RejectedDelivery {
        var pointers = new HashMap<String, String>(wanted.size() * 2);
        wanted.forEach(name -> pointers.put("/" + escape(name), name));
        var byPointer = values(body, pointers.keySet());
        var found = new HashMap<String, String>(byPointer.size() * 2);
        byPointer.forEach((pointer, value) -> found.put(pointers.get(pointer), value));
        return found;
    }

    /** The one value at a pointer, as {@link dev.hookstile.source.Provider#jsonValueAt} tells. */
    public static String valueAt(byte[] body, String pointer) {
        try {
            return values(body, Set.of(pointer)).get(pointer);
        } catch (RejectedDelivery notJson) {
            return null;
        }
    }

    /**
     * The string (or number, as text) values at the wanted JSON pointers (RFC 6901, e.g. {@code /event/type},
     * {@code /entry/0/id}). A pointer to an object, an array, a boolean or null yields nothing; where a key repeats,
     * the first value counts.
     *
     * @throws RejectedDelivery {@link Rejection#INVALID_PAYLOAD} when the body is not a JSON object
     */
    public static Map<String, String> values(byte[] body, Set<String> pointers) throws RejectedDelivery {
        var found = new HashMap<String, String>(4);
        int deepest = 0;
        for (String pointer : pointers) {
            deepest = Math.max(deepest, (int) pointer.chars().filter(c -> c == '/').count());
        }
        // path[d] is the segment leading into nesting level d+1; index[d] counts elements when level d+1 is an array
        String[] path = new String[MAX_DEPTH + 1];
        int[] index = new int[MAX_DEPTH + 1];
        boolean[] array = new boolean[MAX_DEPTH + 1];
        try (JsonParser parser = PARSERS.createParser(strictUtf8(body))) {
            if (!parser.hasNext() || parser.next() != JsonParser.Event.START_OBJECT) {
                throw new RejectedDelivery(Rejection.INVALID_PAYLOAD, "the body must be a JSON object");
            }
            int depth = 1;
            array[1] = false;
            while (parser.hasNext()) {
                JsonParser.Event event = parser.next();
                switch (event) {
                    case KEY_NAME -> path[depth] = parser.getString();
                    case START_OBJECT, START_ARRAY -> {
                        nextElement(array, index, path, depth);
                        if (++depth > MAX_DEPTH) {
                            throw new RejectedDelivery(Rejection.INVALID_PAYLOAD,
                                    "the JSON body nests deeper than " + MAX_DEPTH + " levels");
                        }
                        array[depth] = event == JsonParser.Event.START_ARRAY;
                        index[depth] = -1;
                    }
                    case END_OBJECT, END_ARRAY -> {
                        if (--depth == 0) {
                            return found;
                        }
                    }
                    case VALUE_STRING, VALUE_NUMBER -> {
                        nextElement(array, index, path, depth);
                        if (depth <= deepest) {
                            String pointer = pointer(path, depth);
                            if (pointers.contains(pointer)) {
                                found.putIfAbsent(pointer, parser.getString());
                            }
                        }
                    }
                    default -> nextElement(array, index, path, depth);
                }
            }
            throw new RejectedDelivery(Rejection.INVALID_PAYLOAD, "the body is truncated JSON");
        } catch (JsonException | IllegalStateException | java.util.NoSuchElementException e) {
            throw new RejectedDelivery(Rejection.INVALID_PAYLOAD, e.getCause() instanceof CharacterCodingException
                    ? "the body is not valid UTF-8" : "the body is not valid JSON");
        }
    }

    private static void nextElement(boolean[] array, int[] index, String[] path, int depth) {
        if (array[depth]) {
            path[depth] = Integer.toString(++index[depth]);
        }
    }

    private static String pointer(String[] path, int depth) {
        var pointer = new StringBuilder();
        for (int d = 1; d <= depth; d++) {
            pointer.append('/').append(escape(path[d]));
        }
        return pointer.toString();
    }

    /** RFC 6901: {@code ~} and {@code /} inside a key. */
    static String escape(String key) {
        return key.indexOf('~') < 0 && key.indexOf('/') < 0 ? key : key.replace("~", "~0").replace("/", "~1");
    }

    // JSON is UTF-8 (RFC 8259); Parsson's own decoding would silently replace malformed bytes.
    public static Reader strictUtf8(byte[] body) {
        return new InputStreamReader(new ByteArrayInputStream(body), StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT));
    }
}
