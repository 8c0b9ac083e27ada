package dev.hookstile.events.boundary;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class EventQueryPrefixTest {

    @Test
    void aTypeIsAPrefixWhoseOwnWildcardsAndEscapesAreCharacters() {
        assertEquals("invoice.%", EventQuery.prefixPattern("invoice."));
        assertEquals("100\\%\\_off\\\\%", EventQuery.prefixPattern("100%_off\\"));
    }
}
