package dev.hookstile.console.control;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GzipResponseTest {

    @Test
    void gzipIsSentOnlyToWhoAcceptsIt() {
        assertTrue(GzipResponse.accepted("gzip, deflate, br, zstd"));
        assertTrue(GzipResponse.accepted("br;q=1.0, GZIP;q=0.5"));
        assertFalse(GzipResponse.accepted(null));
        assertFalse(GzipResponse.accepted("br, deflate"));
        assertFalse(GzipResponse.accepted("gzip;q=0"));
        assertFalse(GzipResponse.accepted("gzip; q=0.0"));
        assertFalse(GzipResponse.accepted("x-gzip"));
    }
}
