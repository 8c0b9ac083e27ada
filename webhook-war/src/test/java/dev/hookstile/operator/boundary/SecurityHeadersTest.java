package dev.hookstile.operator.boundary;

import jakarta.servlet.FilterChain;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SecurityHeadersTest {

    private final Map<String, String> headers = new TreeMap<>();
    private final AtomicInteger status = new AtomicInteger(200);
    private final AtomicBoolean passedOn = new AtomicBoolean();

    @Test
    void theConsoleAndItsAssetsMayRunOnlyTheirOwnScriptsAndNeverBeFramed() throws Exception {
        for (String path : new String[] {"/console/", "/console/app.js", "/webjars/uplot/1.6.30/dist/uPlot.esm.js",
                "/_static/htm/3.1.1/preact/standalone.module.js"}) {
            headers.clear();
            filter("", path, null);

            assertEquals("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                    + "connect-src 'self'; font-src 'self'; manifest-src 'self'; base-uri 'none'; "
                    + "form-action 'self'; frame-ancestors 'none'", headers.get("Content-Security-Policy"), path);
            assertEquals("DENY", headers.get("X-Frame-Options"));
            assertEquals("nosniff", headers.get("X-Content-Type-Options"));
            assertEquals("no-referrer", headers.get("Referrer-Policy"));
            assertNull(headers.get("Cache-Control"), "versioned assets may be cached");
            assertTrue(passedOn.get());
        }
    }

    @Test
    void operatorAnswersAreNeverStoredNorSniffed() throws Exception {
        for (String path : new String[] {"/api", "/api/session", "/api/events/gh/1"}) {
            headers.clear();
            filter("", path, null);

            assertEquals(Map.of("Cache-Control", "no-store", "X-Content-Type-Options", "nosniff",
                    "Referrer-Policy", "no-referrer"), headers, path);
            assertTrue(passedOn.get());
        }
    }

    @Test
    void theConsoleWithoutItsSlashRedirectsBelowItKeepingTheQuery() throws Exception {
        filter("/hookstile", "/console", "x=1");

        assertEquals(302, status.get());
        assertEquals("/hookstile/console/?x=1", headers.get("Location"));
        assertEquals("DENY", headers.get("X-Frame-Options"));
        assertFalse(passedOn.get());

        filter("", "/console", null);
        assertEquals("/console/", headers.get("Location"));
    }

    private void filter(String context, String path, String query) throws Exception {
        passedOn.set(false);
        HttpServletRequest request = (HttpServletRequest) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (proxy, method, args) -> switch (method.getName()) {
                    // As with JAX-RS on /*: everything is the path info.
                    case "getServletPath" -> "";
                    case "getPathInfo" -> path;
                    case "getContextPath" -> context;
                    case "getQueryString" -> query;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        HttpServletResponse response = (HttpServletResponse) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {HttpServletResponse.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "setHeader" -> headers.put((String) args[0], (String) args[1]);
                    case "setStatus" -> {
                        status.set((Integer) args[0]);
                        yield null;
                    }
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        FilterChain chain = (req, res) -> passedOn.set(true);
        new SecurityHeaders().doFilter(request, response, chain);
    }
}
