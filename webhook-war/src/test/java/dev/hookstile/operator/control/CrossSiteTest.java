package dev.hookstile.operator.control;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CrossSiteTest {

    @Test
    void theOriginMayNameTheHostAProxyWasAskedForWithOrWithoutItsDefaultPort() {
        assertTrue(CrossSite.sameOrigin("https://ops.example", "ops.example:443", null));
        assertTrue(CrossSite.sameOrigin("https://ops.example:443", "ops.example", null));
        assertTrue(CrossSite.sameOrigin("https://ops.example", "127.0.0.1:8080", "ops.example, proxy.internal"));
        assertTrue(CrossSite.sameOrigin("http://[::1]:8080", "[::1]:8080", null));
        assertFalse(CrossSite.sameOrigin("https://ops.example", null, null));
        assertFalse(CrossSite.sameOrigin("https://ops.example/", "ops.example", null));
    }
}
