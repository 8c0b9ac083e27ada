package dev.hookstile.operator.boundary;

import dev.hookstile.operator.control.OperatorGate;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.container.ContainerRequestContext;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The JAX-RS door on its own, as a request that never met the servlet filter reaches it: it asks the gate and answers
 * the gate's refusal itself.
 */
class OperatorOnlyFilterTest {

    private final AtomicReference<OperatorGate.Refusal> aborted = new AtomicReference<>();
    private final Map<String, Object> attributes = new HashMap<>();
    private final AtomicReference<String> asked = new AtomicReference<>();
    private final AtomicReference<OperatorGate.Request> presented = new AtomicReference<>();
    private final Map<String, String> headers = new HashMap<>();
    private Cookie[] cookies;

    @Test
    void aRequestTheServletFilterNeverSawIsRefusedWithTheGatesAnswer() {
        OperatorOnlyFilter filter = filter(new OperatorGate.Refusal(OperatorGate.Reason.MISSING_TOKEN, 401,
                "unauthorized", "Unauthorized", "send the token", OperatorGate.CHALLENGE, 0));

        filter.filter(request(null));

        assertEquals("203.0.113.5 null GET /hookstile/webhooks/..%2Fapi/events", asked.get());
        assertEquals(401, aborted.get().status());
        assertEquals(OperatorGate.CHALLENGE, aborted.get().challenge());
    }

    @Test
    void anAdmittedRequestPasses() {
        filter(null).filter(request("Bearer right"));

        assertNull(aborted.get());
        assertEquals("203.0.113.5 Bearer right GET /hookstile/webhooks/..%2Fapi/events", asked.get());
    }

    @Test
    void whatTheServletFilterAdmittedIsNotCheckedTwice() {
        OperatorOnlyFilter filter = filter(new OperatorGate.Refusal(OperatorGate.Reason.MISSING_TOKEN, 401,
                "unauthorized", "Unauthorized", "send the token", OperatorGate.CHALLENGE, 0));
        attributes.put(OperatorAuthentication.ADMITTED, Boolean.TRUE);

        filter.filter(request("Bearer right"));

        assertNull(aborted.get());
        assertNull(asked.get());
    }

    @Test
    void theJaxRsDoorPresentsTheSessionCookieAndItsAntiForgeryTokenAsTheServletDoorDoes() {
        cookies = new Cookie[] {new Cookie("hookstile_session", "the-session-id")};
        headers.put("X-CSRF-Token", "the-csrf-token");
        headers.put("Origin", "https://ops.example");
        headers.put("Host", "ops.example");

        filter(null).filter(request(null));

        assertEquals(new OperatorGate.Request("203.0.113.5", "GET", "/hookstile/webhooks/..%2Fapi/events", null,
                List.of("the-session-id"), "the-csrf-token", "https://ops.example", "ops.example", null),
                presented.get());
    }

    private OperatorOnlyFilter filter(OperatorGate.Refusal answer) {
        OperatorOnlyFilter filter = new OperatorOnlyFilter();
        filter.answers = refusal -> {
            aborted.set(refusal);
            return null;
        };
        filter.gate = new OperatorGate() {
            @Override
            public Refusal check(Request request) {
                presented.set(request);
                asked.set(request.address() + " " + request.authorization() + " " + request.method() + " "
                        + request.path());
                return answer;
            }
        };
        filter.servletRequest = (HttpServletRequest) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getAttribute" -> attributes.get((String) args[0]);
                    case "getRemoteAddr" -> "203.0.113.5";
                    case "getRequestURI" -> "/hookstile/webhooks/..%2Fapi/events";
                    case "getHeader" -> "Authorization".equals(args[0]) ? authorization : headers.get((String) args[0]);
                    case "getCookies" -> cookies;
                    case "isSecure" -> false;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        return filter;
    }

    private String authorization;

    private ContainerRequestContext request(String authorization) {
        this.authorization = authorization;
        return (ContainerRequestContext) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {ContainerRequestContext.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getMethod" -> "GET";
                    case "abortWith" -> null;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
