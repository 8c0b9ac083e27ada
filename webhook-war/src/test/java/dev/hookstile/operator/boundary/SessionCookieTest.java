package dev.hookstile.operator.boundary;

import dev.hookstile.operator.control.OperatorGate;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The cookie as both doors read it and as the sign-in writes it, and the sign-in body as it is read. */
class SessionCookieTest {

    @Test
    void theCookieIsHttpOnlySameSiteStrictForTheWholeSiteAndDiesWithTheBrowser() {
        assertEquals("hookstile_session=abc_-1; Path=/; HttpOnly; SameSite=Strict",
                SessionCookie.open("abc_-1", request(Map.of(), false)));
        assertEquals("hookstile_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict",
                SessionCookie.clear(request(Map.of(), false)));
    }

    @Test
    void theCookieIsSecureAndHostPrefixedOverTlsAndBehindAProxyThatEndedTls() {
        assertEquals("__Host-hookstile_session=x; Path=/; HttpOnly; SameSite=Strict; Secure",
                SessionCookie.open("x", request(Map.of(), true)));
        assertEquals("__Host-hookstile_session=x; Path=/; HttpOnly; SameSite=Strict; Secure",
                SessionCookie.open("x", request(Map.of("X-Forwarded-Proto", "HTTPS, http"), false)));
        assertEquals("__Host-hookstile_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict; Secure",
                SessionCookie.clear(request(Map.of("X-Forwarded-Proto", "https"), false)));
        assertEquals("hookstile_session=x; Path=/; HttpOnly; SameSite=Strict",
                SessionCookie.open("x", request(Map.of("X-Forwarded-Proto", "http"), false)));
    }

    @Test
    void bothDoorsPresentEverySessionCookieTheAntiForgeryHeaderAndTheOriginToTheGate() {
        HttpServletRequest request = request(Map.of("X-CSRF-Token", "c", "Origin", "https://evil.example",
                "Host", "ops.example", "X-Forwarded-Host", "proxy.example", "Authorization", "Bearer t"), false,
                new Cookie("other", "1"), new Cookie("hookstile_session", "planted"),
                new Cookie("hookstile_session", "real"), new Cookie("hookstile_session", ""));

        OperatorGate.Request presented = SessionCookie.presented(request, "DELETE");

        assertEquals(new OperatorGate.Request("203.0.113.5", "DELETE", "/api/session", "Bearer t",
                List.of("planted", "real"), "c", "https://evil.example", "ops.example", "proxy.example"), presented);
        assertEquals(List.of(), SessionCookie.values(request(Map.of(), false)));
    }

    @Test
    void overTlsOnlyTheHostPrefixedCookieIsReadSoAPlantedPlainOneOpensNothing() {
        Cookie planted = new Cookie("hookstile_session", "planted-by-a-sibling-host");
        Cookie real = new Cookie("__Host-hookstile_session", "real");

        assertEquals(List.of("real"), SessionCookie.values(request(Map.of(), true, planted, real)));
        assertEquals(List.of("real"),
                SessionCookie.values(request(Map.of("X-Forwarded-Proto", "https"), false, planted, real)));
        assertEquals(List.of("planted-by-a-sibling-host"),
                SessionCookie.values(request(Map.of(), false, planted, real)),
                "plain HTTP: the plain name, the only one a browser keeps there");
    }

    @Test
    void theSignInTokenIsTheTokenFieldOfASmallJsonObjectAndNothingElse() {
        assertEquals("t0k3n", SessionResource.token(body("{\"token\":\"t0k3n\"}")));
        assertEquals("t0k3n", SessionResource.token(body("{\"other\":1,\"token\":\"t0k3n\"}")));
        assertNull(SessionResource.token(body("{\"token\":42}")));
        assertNull(SessionResource.token(body("[\"t0k3n\"]")));
        assertNull(SessionResource.token(body("token=t0k3n")));
        assertNull(SessionResource.token(body("{\"token\":\"t0k3n\"")));
        assertNull(SessionResource.token(body("")));
        assertNull(SessionResource.token(null));
        assertNull(SessionResource.token(body("{\"token\":\"" + "x".repeat(SessionResource.MAX_BODY_BYTES) + "\"}")));
    }

    private static ByteArrayInputStream body(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }

    private static HttpServletRequest request(Map<String, String> headers, boolean secure, Cookie... cookies) {
        return (HttpServletRequest) Proxy.newProxyInstance(SessionCookieTest.class.getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getHeader" -> headers.get((String) args[0]);
                    case "isSecure" -> secure;
                    case "getCookies" -> cookies.length == 0 ? null : cookies;
                    case "getRemoteAddr" -> "203.0.113.5";
                    case "getRequestURI" -> "/api/session";
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
