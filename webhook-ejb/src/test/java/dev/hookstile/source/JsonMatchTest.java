package dev.hookstile.source;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The embedded database's matching: PostgreSQL's {@code jsonb @>} rules. */
class JsonMatchTest {

    private static final String STRIPE = """
            {"id":"evt_1","type":"charge.failed","data":{"object":{"id":"ch_1","status":"failed","amount":1000,
            "metadata":{"order":"1234"},"refunds":[{"id":"re_1"},{"id":"re_2","reason":"duplicate"}],"tags":["a","b"]}}}""";

    @Test
    void aBodyMatchesAFragmentItContainsWhateverElseItHolds() {
        assertTrue(matches("{\"data\":{\"object\":{\"status\":\"failed\"}}}"));
        assertTrue(matches("{\"type\":\"charge.failed\",\"data\":{\"object\":{\"metadata\":{\"order\":\"1234\"}}}}"));
        assertTrue(matches("{\"data\":{\"object\":{\"amount\":1000.0}}}"), "numbers by value");
        assertTrue(matches("{\"data\":{\"object\":{\"refunds\":[{\"reason\":\"duplicate\"}]}}}"),
                "an array contains an element that contains the fragment's");
        assertTrue(matches("{\"data\":{\"object\":{\"tags\":[\"b\"]}}}"));
        assertTrue(matches("{}"));
    }

    @Test
    void aBodyDoesNotMatchWhatItLacksOrHoldsOtherwise() {
        assertFalse(matches("{\"data\":{\"object\":{\"status\":\"succeeded\"}}}"));
        assertFalse(matches("{\"data\":{\"object\":{\"amount\":\"1000\"}}}"), "a string is not a number");
        assertFalse(matches("{\"status\":\"failed\"}"), "only where the fragment says");
        assertFalse(matches("{\"data\":{\"object\":{\"tags\":\"b\"}}}"), "a scalar is not an array");
        assertFalse(matches("{\"data\":{\"object\":{\"tags\":[\"c\"]}}}"));
    }

    @Test
    void whatIsNotAJsonObjectMatchesNothingAndBreaksNothing() {
        JsonMatch any = JsonMatch.parse("{}");

        assertFalse(any.matches("From=%2B1555&Body=hi".getBytes(StandardCharsets.UTF_8)), "a form body");
        assertFalse(any.matches("{\"a\":".getBytes(StandardCharsets.UTF_8)), "truncated");
        assertFalse(any.matches(new byte[] {'{', (byte) 0xff, '}'}), "not UTF-8");
        assertFalse(any.matches("[1]".getBytes(StandardCharsets.UTF_8)));
        assertFalse(any.matches(("{\"a\":" + "[".repeat(100_000)).getBytes(StandardCharsets.UTF_8)), "hostile depth");
        assertTrue(JsonMatch.parse("{\"a\":\"\\u0000\"}").matches("{\"a\":\"\\u0000\"}".getBytes()),
                "a NUL escape breaks nothing (PostgreSQL's jsonb refuses such a body: there it matches nothing)");
    }

    @Test
    void aFragmentMustBeABoundedJsonObject() {
        assertThrows(IllegalArgumentException.class, () -> JsonMatch.parse("status:failed"));
        assertThrows(IllegalArgumentException.class, () -> JsonMatch.parse("[\"failed\"]"));
        assertThrows(IllegalArgumentException.class, () -> JsonMatch.parse("{\"a\":" + "x".repeat(5000) + "}"));
        assertThrows(IllegalArgumentException.class,
                () -> JsonMatch.parse("{\"a\":".repeat(40) + "1" + "}".repeat(40)));
        assertEquals("{\"data\":{\"status\":\"failed\"}}", JsonMatch.parse(" { \"data\" : {\"status\":\"failed\"} } ")
                .json());
    }

    private static boolean matches(String fragment) {
        return JsonMatch.parse(fragment).matches(STRIPE.getBytes(StandardCharsets.UTF_8));
    }
}
