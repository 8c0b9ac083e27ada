package dev.hookstile.operator.boundary;

import dev.hookstile.operator.control.OperatorGate;
import dev.hookstile.web.boundary.Problems;
import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Admits a request to the operator API, {@code /api} and everything below it, for every method, only as
 * {@link OperatorGate} decides: from an allowed address, not while the client waits out its failures ({@code 429}),
 * and with {@code Authorization: Bearer <admin token>} or a console session's cookie ({@code 401} with a
 * {@code WWW-Authenticate: Bearer} challenge, RFC 6750, otherwise; with the cookie, a state-changing method also needs
 * the anti-forgery token). {@code POST} and {@code GET /api/session}, the console's sign-in, pass on to
 * {@link SessionResource}, which asks the gate with the token from the body; a sign-in is first asked here what
 * can be asked without its body (allowlist, throttle, {@code Origin}, {@code Content-Type}). All before any resource
 * is resolved, and before any body is read: an unknown path is {@code 401} without the token and {@code 404} with
 * it. Senders are not authenticated here: a webhook proves itself by its signature.
 *
 * <p>Mapped in {@code web.xml}, before {@code BodyBuffer}, which gathers a body admitted here under the body deadline
 * and the shared budget: a client the gate refuses never has a byte of its body read, and a refusal with a body
 * still unread closes the connection.
 *
 * <p>This is the first door, not the only one: a path the container maps elsewhere but JAX-RS routes to an operator
 * resource never meets this filter, so {@link OperatorOnlyFilter} checks again inside JAX-RS, unless this filter
 * already admitted the request.
 *
 * <p>A servlet filter, not a Jakarta Security mechanism: once an application has an
 * {@code HttpAuthenticationMechanism}, Payara runs the Jakarta Authentication bridge and its authorization checks on
 * every request, webhooks included, which cost about a fifth of the ingest threads' CPU (profiled). Mapped to
 * {@code /api/*} only, this filter costs the webhook path nothing.
 */
public class OperatorAuthentication extends HttpFilter {

    /** Set on a request this filter admitted; a client cannot set request attributes. */
    static final String ADMITTED = OperatorAuthentication.class.getName() + ".admitted";

    @Inject
    OperatorGate gate;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        OperatorGate.Refusal refusal;
        if (OperatorGate.opensWithoutCredentials(request.getMethod(), pathBelowContext(request))) {
            // Signing in, or asking whether one is: SessionResource asks the gate itself (allowlist, throttle, the
            // token from the body). Not marked admitted: nothing else is reached this way. A sign-in's body is read
            // only once what needs no body passed.
            refusal = "POST".equals(request.getMethod())
                    ? gate.beforeSignIn(SessionCookie.presented(request, "POST"), request.getContentType())
                    : null;
            if (refusal == null) {
                chain.doFilter(request, response);
                return;
            }
        } else {
            refusal = gate.check(SessionCookie.presented(request, request.getMethod()));
            if (refusal == null) {
                request.setAttribute(ADMITTED, Boolean.TRUE);
                chain.doFilter(request, response);
                return;
            }
        }
        response.setStatus(refusal.status());
        if (request.getContentLengthLong() > 0 || request.getHeader("Transfer-Encoding") != null) {
            // The body stays unread: the connection ends with the answer rather than wait for it.
            response.setHeader("Connection", "close");
        }
        if (refusal.challenge() != null) {
            response.setHeader("WWW-Authenticate", refusal.challenge());
        }
        if (refusal.retryAfterSeconds() > 0) {
            response.setHeader("Retry-After", Long.toString(refusal.retryAfterSeconds()));
        }
        response.setContentType(Problems.MEDIA_TYPE);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        // No instance: the path is the client's, and a refusal need not repeat it.
        response.getWriter().write(Problems.json(refusal.status(), refusal.slug(), refusal.title(),
                refusal.detail(), null));
    }

    /** The decoded path as the container routes it, without the context path. */
    static String pathBelowContext(HttpServletRequest request) {
        String info = request.getPathInfo();
        return request.getServletPath() + (info == null ? "" : info);
    }
}
