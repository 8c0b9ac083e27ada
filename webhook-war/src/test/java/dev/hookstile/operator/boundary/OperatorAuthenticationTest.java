package dev.hookstile.operator.boundary;

import dev.hookstile.operator.control.OperatorGate;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The servlet door to {@code /api} on a sign-in: what can be refused without the body (the allowlist, the throttle,
 * another site's page, a body that is not JSON) is refused before a byte of the body is read, and the connection
 * ends with the refusal instead of waiting for the unread body.
 */
class OperatorAuthenticationTest {

    private final Map<String, String> headers = new HashMap<>();
    private final Map<String, String> answered = new HashMap<>();
    private final Map<String, Object> attributes = new HashMap<>();
    private final AtomicReference<OperatorGate.Request> asked = new AtomicReference<>();
    private final AtomicReference<String> askedType = new AtomicReference<>();
    private final AtomicInteger status = new AtomicInteger();
    private final AtomicInteger chained = new AtomicInteger();
    private final List<String> bodyReads = new ArrayList<>();
    private final StringWriter written = new StringWriter();

    @Test
    void aRefusedSignInIsAnsweredBeforeAByteOfItsBodyIsReadAndEndsTheConnection() throws Exception {
        headers.put("Origin", "https://evil.example");
        headers.put("Host", "ops.example:8080");
        OperatorAuthentication filter = filter(new OperatorGate.Refusal(OperatorGate.Reason.FOREIGN_ORIGIN, 403,
                "foreign-origin", "Forbidden", "a sign-in must come from a page of this site", null, 0));

        filter.doFilter(request("POST", "/api/session", "text/plain", 4096), response(),
                (req, res) -> chained.incrementAndGet());

        assertEquals(403, status.get());
        assertEquals(0, chained.get());
        assertEquals(List.of(), bodyReads, "the body was not touched");
        assertEquals("close", answered.get("Connection"));
        assertEquals("application/problem+json", answered.get("Content-Type"));
        assertTrue(written.toString().contains("\"type\":\"urn:hookstile:problem:foreign-origin\""),
                written.toString());
        assertEquals(new OperatorGate.Request("203.0.113.5", "POST", "/hookstile/api/session", null, List.of(), null,
                "https://evil.example", "ops.example:8080", null), asked.get());
        assertEquals("text/plain", askedType.get());
    }

    @Test
    void aSignInTheGateLetsThroughGoesOnToBeGatheredWithoutBeingAdmittedElsewhere() throws Exception {
        OperatorAuthentication filter = filter(null);

        filter.doFilter(request("POST", "/api/session", "application/json", 20), response(),
                (req, res) -> chained.incrementAndGet());

        assertEquals(1, chained.get());
        assertEquals("application/json", askedType.get());
        assertNull(attributes.get(OperatorAuthentication.ADMITTED), "the sign-in opens nothing but itself");
        assertEquals(List.of(), bodyReads, "the body is read further on (BodyBuffer, then SessionResource)");
    }

    @Test
    void askingWhetherSignedInNeedsNoBodyCheck() throws Exception {
        filter(new OperatorGate.Refusal(OperatorGate.Reason.FOREIGN_ORIGIN, 403, "foreign-origin", "Forbidden", "x",
                null, 0)).doFilter(request("GET", "/api/session", null, -1), response(),
                (req, res) -> chained.incrementAndGet());

        assertEquals(1, chained.get());
        assertNull(asked.get());
    }

    @Test
    void anyOtherCallRefusedWithItsBodyUnreadEndsTheConnectionToo() throws Exception {
        OperatorAuthentication filter = filter(new OperatorGate.Refusal(OperatorGate.Reason.ADDRESS_NOT_ALLOWED, 403,
                "forbidden", "Forbidden", "not this address", null, 0));

        filter.doFilter(request("POST", "/api/replays", "application/json", 300), response(),
                (req, res) -> chained.incrementAndGet());

        assertEquals(403, status.get());
        assertEquals(0, chained.get());
        assertEquals(List.of(), bodyReads);
        assertEquals("close", answered.get("Connection"));
    }

    private OperatorAuthentication filter(OperatorGate.Refusal answer) {
        OperatorAuthentication filter = new OperatorAuthentication();
        filter.gate = new OperatorGate() {
            @Override
            public Refusal beforeSignIn(Request request, String contentType) {
                asked.set(request);
                askedType.set(contentType);
                return answer;
            }

            @Override
            public Refusal check(Request request) {
                asked.set(request);
                return answer;
            }
        };
        return filter;
    }

    private HttpServletRequest request(String method, String path, String contentType, long length) {
        return (HttpServletRequest) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (proxy, m, args) -> switch (m.getName()) {
                    case "getMethod" -> method;
                    case "getServletPath" -> "";
                    case "getPathInfo" -> path;
                    case "getRequestURI" -> "/hookstile" + path;
                    case "getRemoteAddr" -> "203.0.113.5";
                    case "getContentType" -> contentType;
                    case "getContentLengthLong" -> length;
                    case "getHeader" -> headers.get((String) args[0]);
                    case "getCookies" -> null;
                    case "isSecure" -> false;
                    case "getAttribute" -> attributes.get((String) args[0]);
                    case "setAttribute" -> attributes.put((String) args[0], args[1]);
                    case "getInputStream", "getReader" -> {
                        bodyReads.add(m.getName());
                        throw new AssertionError("the body was read: " + m.getName());
                    }
                    default -> throw new UnsupportedOperationException(m.getName());
                });
    }

    private HttpServletResponse response() {
        return (HttpServletResponse) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {HttpServletResponse.class}, (proxy, m, args) -> switch (m.getName()) {
                    case "setStatus" -> {
                        status.set((Integer) args[0]);
                        yield null;
                    }
                    case "setHeader" -> answered.put((String) args[0], (String) args[1]);
                    case "setContentType" -> answered.put("Content-Type", (String) args[0]);
                    case "setCharacterEncoding" -> null;
                    case "getWriter" -> new PrintWriter(written, true);
                    default -> throw new UnsupportedOperationException(m.getName());
                });
    }
}
