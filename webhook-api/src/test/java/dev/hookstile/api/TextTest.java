package dev.hookstile.api;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TextTest {

    private static final String HOSTILE = "a\nb\r\u0085c\u2028d\u202ee\u2067f\u001b[31m";

    @Test
    void shownTextHasEveryUnsafeCharacterReplacedAndIsCutWithASign() {
        assertEquals("a?b??c?d?e?f?[31m", Text.shown(HOSTILE, 64));
        assertEquals("abc...", Text.shown("abcdef", 3));
        assertEquals("abc", Text.shown("abc", 3));
        assertEquals("null", Text.shown(null, 3));
    }

    @Test
    void escapedTextKeepsEveryCharacterRecoverablyOnOneLine() {
        assertEquals("a\\u000ab\\u000d\\u0085c\\u2028d\\u202ee\\u2067f\\u001b[31m", Text.escaped(HOSTILE));
        assertEquals("\\u007b0\\u007d \\\\", Text.escaped("{0} \\"));
        assertEquals("\"say \\\"hi\\\"\"", Text.quoted("say \"hi\""));
    }

    @Test
    void whatIngestLetsIntoANameHasNoControlCharacter() {
        assertTrue(Text.withoutControls("evt_1 ✓"));
        assertFalse(Text.withoutControls("evt\t1"));
        assertFalse(Text.withoutControls("evt\u007f"));
    }
}
