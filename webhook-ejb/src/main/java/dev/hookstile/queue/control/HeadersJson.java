package dev.hookstile.queue.control;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads back the headers an event carries in its message: the flat JSON object of strings that {@code EventMessage}
 * writes, read here without a JSON parser. The consumer reads one for every event, and Parsson's reader allocated
 * about a tenth of all an event cost the JVM (its tokenizer's buffers and a {@code JsonObject} copied into the map;
 * profiled with JFR, docs/benchmarks.md); this allocates the names, the values and the map.
 *
 * <p>It reads only what the writer produces: an object whose values are strings, with JSON's escapes. Anything else
 * (another writer's message, a value that is not a string) answers {@code null} and the caller reads it with a full
 * JSON parser, so the two always agree.
 */
public final class HeadersJson {

    private HeadersJson() {
    }

    /** The object's members in order, or {@code null} when it is not a flat object of strings. */
    public static Map<String, String> parse(String json) {
        var headers = new LinkedHashMap<String, String>();
        var cursor = new int[]{skipSpace(json, 0)};
        if (!expect(json, cursor, '{')) {
            return null;
        }
        if (peek(json, cursor) == '}') {
            cursor[0]++;
            return skipSpace(json, cursor[0]) == json.length() ? headers : null;
        }
        while (true) {
            String name = string(json, cursor);
            if (name == null || !expect(json, cursor, ':')) {
                return null;
            }
            String value = string(json, cursor);
            if (value == null) {
                return null;
            }
            headers.put(name, value);
            int next = peek(json, cursor);
            cursor[0]++;
            if (next == '}') {
                return skipSpace(json, cursor[0]) == json.length() ? headers : null;
            }
            if (next != ',') {
                return null;
            }
        }
    }

    /** A JSON string at the cursor (after spaces), unescaped; {@code null} if there is none or it is malformed. */
    private static String string(String json, int[] cursor) {
        if (!expect(json, cursor, '"')) {
            return null;
        }
        int start = cursor[0];
        int end = start;
        while (end < json.length() && json.charAt(end) != '"' && json.charAt(end) != '\\') {
            end++;
        }
        if (end < json.length() && json.charAt(end) == '"') {
            cursor[0] = end + 1;
            return json.substring(start, end);
        }
        var text = new StringBuilder(end - start + 16).append(json, start, end);
        int i = end;
        while (i < json.length()) {
            char c = json.charAt(i++);
            if (c == '"') {
                cursor[0] = i;
                return text.toString();
            }
            if (c != '\\') {
                text.append(c);
                continue;
            }
            if (i >= json.length()) {
                return null;
            }
            char escaped = json.charAt(i++);
            switch (escaped) {
                case '"', '\\', '/' -> text.append(escaped);
                case 'b' -> text.append('\b');
                case 'f' -> text.append('\f');
                case 'n' -> text.append('\n');
                case 'r' -> text.append('\r');
                case 't' -> text.append('\t');
                case 'u' -> {
                    if (i + 4 > json.length()) {
                        return null;
                    }
                    int code = 0;
                    for (int k = 0; k < 4; k++) {
                        int digit = Character.digit(json.charAt(i++), 16);
                        if (digit < 0) {
                            return null;
                        }
                        code = code * 16 + digit;
                    }
                    text.append((char) code);
                }
                default -> {
                    return null;
                }
            }
        }
        return null;
    }

    private static boolean expect(String json, int[] cursor, char wanted) {
        if (peek(json, cursor) != wanted) {
            return false;
        }
        cursor[0]++;
        return true;
    }

    /** The next character after spaces (the cursor moved to it), or -1 at the end. */
    private static int peek(String json, int[] cursor) {
        cursor[0] = skipSpace(json, cursor[0]);
        return cursor[0] < json.length() ? json.charAt(cursor[0]) : -1;
    }

    private static int skipSpace(String json, int at) {
        while (at < json.length() && (json.charAt(at) == ' ' || json.charAt(at) == '\t' || json.charAt(at) == '\n'
                || json.charAt(at) == '\r')) {
            at++;
        }
        return at;
    }
}
