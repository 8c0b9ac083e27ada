package dev.hookstile.queue.control;

import dev.hookstile.queue.boundary.EventMessage;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class HeadersJsonTest {

    @Test
    void readsBackWhatTheMessageWritesWhateverTheSenderPutInAHeader() {
        var random = new Random(35);
        // Sender-controlled values: quotes, backslashes, control characters, line separators, surrogate pairs.
        String alphabet = "ab\"\\/\b\f\n\r\t\u0000\u001f\u007f\u2028\u2029\u202e é€😀{}[]:,";
        for (int round = 0; round < 2_000; round++) {
            var headers = new LinkedHashMap<String, String>();
            int count = random.nextInt(6);
            for (int i = 0; i < count; i++) {
                headers.put("x-" + i + text(random, alphabet), text(random, alphabet));
            }
            String json = EventMessage.headersJson(headers);
            assertEquals(headers, HeadersJson.parse(json), json);
            assertEquals(List.copyOf(headers.keySet()), List.copyOf(HeadersJson.parse(json).keySet()), "in order");
        }
    }

    @Test
    void readsSpacesAndEveryEscapeJsonHas() {
        assertEquals(Map.of("a", "\"\\/\b\f\n\r\t\u00e9", "b", ""),
                HeadersJson.parse(" { \"a\" : \"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00E9\" ,\n\"b\":\"\" } "));
        assertEquals(Map.of(), HeadersJson.parse("{}"));
    }

    @Test
    void answersNothingForWhatItsWriterNeverProducesSoTheFullParserDecides() {
        for (String json : List.of("", "[]", "{", "{\"a\":1}", "{\"a\":null}", "{\"a\":\"b\"", "{\"a\":\"b\"} x",
                "{\"a\":\"\\x\"}", "{\"a\":\"\\u12\"}", "{\"a\":\"\\u12G4\"}", "{a:\"b\"}", "{\"a\":\"b\",}",
                "{\"a\" \"b\"}", "{\"a\":{\"b\":\"c\"}}")) {
            assertNull(HeadersJson.parse(json), json);
        }
    }

    private static String text(Random random, String alphabet) {
        var text = new StringBuilder();
        int length = random.nextInt(12);
        for (int i = 0; i < length; i++) {
            text.appendCodePoint(alphabet.codePoints().skip(random.nextInt((int) alphabet.codePoints().count()))
                    .findFirst().orElseThrow());
        }
        return text.toString();
    }
}
