package dev.hookstile.operator.boundary;

import dev.hookstile.operator.control.OperatorGate;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;

import java.util.ArrayList;
import java.util.List;

/**
 * The console session's cookie, {@code __Host-hookstile_session} over TLS and {@code hookstile_session} over plain
 * HTTP, and what a request presents to {@link OperatorGate}: both doors read a request here, so they cannot disagree
 * on it.
 *
 * <p>{@code HttpOnly}: the page's script never sees the id (an injected script cannot carry it away).
 * {@code SameSite=Strict}: a browser sends it only with requests a page of this site starts. No {@code Max-Age}: it
 * dies with the browser session; the server ends it earlier (idle, 12 h, sign-out). {@code Secure} whenever the
 * request came over TLS, also through a proxy that says so ({@code X-Forwarded-Proto: https}), and then the
 * {@code __Host-} prefix: a browser keeps a cookie of that name only if it is {@code Secure}, for {@code Path=/} and
 * without {@code Domain}, so no sibling host and no plain-HTTP page can plant or overwrite one; and over TLS only a
 * cookie of that name is read. Over plain HTTP a browser refuses a {@code Secure} cookie (bar {@code localhost}), and
 * therefore the prefix too: there the cookie keeps its plain name, and plain HTTP protects nothing anyway.
 */
final class SessionCookie {

    /** The cookie's name over plain HTTP. */
    static final String NAME = "hookstile_session";
    /** The cookie's name over TLS: the prefix makes browsers enforce {@code Secure}, {@code Path=/}, no domain. */
    static final String SECURE_NAME = "__Host-" + NAME;
    static final String CSRF_HEADER = "X-CSRF-Token";

    private SessionCookie() {
    }

    /** Everything the gate looks at, from the servlet request; {@code method} as the door sees it. */
    static OperatorGate.Request presented(HttpServletRequest request, String method) {
        return new OperatorGate.Request(request.getRemoteAddr(), method, request.getRequestURI(),
                request.getHeader("Authorization"), values(request), request.getHeader(CSRF_HEADER),
                request.getHeader("Origin"), request.getHeader("Host"), request.getHeader("X-Forwarded-Host"));
    }

    /** The value of every cookie of the name this request's scheme gives it, in the order sent. */
    static List<String> values(HttpServletRequest request) {
        Cookie[] cookies = request.getCookies();
        if (cookies == null) {
            return List.of();
        }
        String name = name(request);
        List<String> values = new ArrayList<>(1);
        for (Cookie cookie : cookies) {
            if (name.equals(cookie.getName()) && cookie.getValue() != null && !cookie.getValue().isEmpty()) {
                values.add(cookie.getValue());
            }
        }
        return values;
    }

    /** {@code Set-Cookie} for a new session. The id is base64url: nothing in it needs quoting. */
    static String open(String id, HttpServletRequest request) {
        return name(request) + "=" + id + "; Path=/; HttpOnly; SameSite=Strict" + (secure(request) ? "; Secure" : "");
    }

    /** {@code Set-Cookie} that makes the browser drop the cookie. */
    static String clear(HttpServletRequest request) {
        return name(request) + "=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict"
                + (secure(request) ? "; Secure" : "");
    }

    /** {@value #SECURE_NAME} over TLS, {@value #NAME} over plain HTTP. */
    static String name(HttpServletRequest request) {
        return secure(request) ? SECURE_NAME : NAME;
    }

    static boolean secure(HttpServletRequest request) {
        String proto = request.getHeader("X-Forwarded-Proto");
        return request.isSecure() || (proto != null && "https".equalsIgnoreCase(proto.split(",", 2)[0].trim()));
    }
}
