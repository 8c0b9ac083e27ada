package dev.hookstile.operator.boundary;

import dev.hookstile.events.entity.EventStatus;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class QueryParametersTest {

    @Test
    void blankTextIsAbsentAndTextIsTrimmed() {
        assertNull(QueryParameters.text("source", "  ", 63));
        assertEquals("gh", QueryParameters.text("source", " gh ", 63));
    }

    @Test
    void controlCharactersAndOverlongTextAreRefusedBeforeTheDatabaseSeesThem() {
        assertEquals("source contains a control character",
                assertThrows(IllegalArgumentException.class, () -> QueryParameters.text("source", "g\u0000h", 63))
                        .getMessage());
        assertThrows(IllegalArgumentException.class, () -> QueryParameters.text("type", "t".repeat(256), 255));
        assertThrows(IllegalArgumentException.class, () -> QueryParameters.text("source", "\u0000", 63),
                "a NUL at the end is not trimmed away");
    }

    @Test
    void instantsMustBeIsoAndWithinYearsOneTo9999() {
        assertEquals(Instant.parse("2026-11-23T08:00:00Z"), QueryParameters.instant("since", "2026-11-23t08:00:00z"));
        assertThrows(IllegalArgumentException.class, () -> QueryParameters.instant("since", "yesterday"));
        assertThrows(IllegalArgumentException.class, () -> QueryParameters.instant("since", "+300000-01-01T00:00:00Z"));
    }

    @Test
    void limitIsAWholeNumberInRange() {
        assertEquals(50, QueryParameters.limit(null, 50, 500));
        assertEquals(7, QueryParameters.limit("7", 50, 500));
        assertThrows(IllegalArgumentException.class, () -> QueryParameters.limit("abc", 50, 500));
        assertThrows(IllegalArgumentException.class, () -> QueryParameters.limit("0", 50, 500));
        assertThrows(IllegalArgumentException.class, () -> QueryParameters.limit("501", 50, 500));
    }

    @Test
    void statusIsOneOfTheDocumentedOnes() {
        assertEquals(EventStatus.DEAD, QueryParameters.status("dead"));
        assertThrows(IllegalArgumentException.class, () -> QueryParameters.status("lost"));
    }
}
