package dev.hookstile.trace;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TraceParentTest {

    // The W3C Trace Context specification's own example.
    private static final String EXAMPLE = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @Test
    void theSpecificationsExampleIsReadAndWrittenBackAsItCame() {
        TraceParent parent = TraceParent.parse(EXAMPLE);

        assertNotNull(parent);
        assertEquals("4bf92f3577b34da6a3ce929d0e0e4736", parent.traceId());
        assertEquals("00f067aa0ba902b7", parent.spanId());
        assertTrue(parent.sampled());
        assertEquals(EXAMPLE, parent.header());
        assertEquals("4bf92f3577b34da6a3ce929d0e0e4736", TraceParent.traceIdOf(EXAMPLE));
    }

    @Test
    void aLaterVersionIsReadForWhatVersionZeroKnowsOfIt() {
        TraceParent parent = TraceParent.parse("cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-03-what-follows");

        assertNotNull(parent);
        assertEquals("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", parent.header());
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-more",
            "00_4bf92f3577b34da6a3ce929d0e0e4736_00f067aa0ba902b7_01",
            "00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0x",
            "cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01\n<script>"
    })
    void aValueThatBreaksTheRulesStartsANewTraceInstead(String value) {
        assertNull(TraceParent.parse(value));
    }

    @Test
    void noHeaderIsNoContext() {
        assertNull(TraceParent.parse(null));
    }

    @Test
    void aNewTraceIsValidSampledAndNewEachTime() {
        TraceParent first = TraceParent.start();
        TraceParent second = TraceParent.start();

        assertEquals(first, TraceParent.parse(first.header()));
        assertEquals(TraceParent.LENGTH, first.header().length());
        assertTrue(first.sampled());
        assertNotEquals(first.traceId(), second.traceId());
    }

    @Test
    void aChildKeepsTheTraceAndItsFlagsWithASpanOfItsOwn() {
        TraceParent parent = TraceParent.parse("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00");

        TraceParent child = parent.child();

        assertEquals(parent.traceId(), child.traceId());
        assertNotEquals(parent.spanId(), child.spanId());
        assertEquals("00", child.flags());
        assertEquals(child, TraceParent.parse(child.header()));
    }
}
