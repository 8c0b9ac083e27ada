package dev.hookstile.operator.boundary;

import dev.hookstile.operator.boundary.AdminToken;
import dev.hookstile.platform.boundary.Problems;
import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.logging.Logger;

/**
 * Admits a request to the operator API, {@code /api} and everything below it, for every method, only with
 * {@code Authorization: Bearer <admin token>}; anything else is answered {@code 401} here, with a
 * {@code WWW-Authenticate: Bearer} challenge (RFC 6750) and problem details, before any resource is resolved (an
 * unknown path is {@code 401} without the token and {@code 404} with it). Senders are not authenticated here: a
 * webhook proves itself by its signature.
 *
 * <p>A servlet filter, not a Jakarta Security mechanism: once an application has an
 * {@code HttpAuthenticationMechanism}, Payara runs the Jakarta Authentication bridge and its authorization checks on
 * every request, webhooks included, which cost about a fifth of the ingest threads' CPU (profiled). Mapped to
 * {@code /api/*} only, this filter costs the webhook path nothing.
 */
@WebFilter(urlPatterns = "/api/*", asyncSupported = true)
public class OperatorAuthentication extends HttpFilter {

    static final String CHALLENGE = "Bearer realm=\"hookstile\"";
    private static final String SCHEME = "Bearer ";
    private static final Logger LOG = Logger.getLogger(OperatorAuthentication.class.getName());

    @Inject
    AdminToken adminToken;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String authorization = request.getHeader("Authorization");
        if (authorization == null || authorization.isBlank()) {
            refuse(request, response, CHALLENGE, "this is the operator API: send the admin token as "
                    + "'Authorization: Bearer <token>' (" + AdminToken.ENVIRONMENT_VARIABLE
                    + ", or the token in <data dir>/" + AdminToken.FILE_NAME + ")");
        } else if (!authorization.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
            refuse(request, response, CHALLENGE, "the operator API accepts only the Bearer scheme: "
                    + "'Authorization: Bearer <token>'");
        } else if (!adminToken.matches(authorization.substring(SCHEME.length()).trim())) {
            refuse(request, response, CHALLENGE + ", error=\"invalid_token\"",
                    "the bearer token is not the admin token (" + AdminToken.ENVIRONMENT_VARIABLE
                            + ", or the token in <data dir>/" + AdminToken.FILE_NAME + ")");
        } else {
            chain.doFilter(request, response);
        }
    }

    private static void refuse(HttpServletRequest request, HttpServletResponse response, String challenge,
                               String detail) throws IOException {
        // The detail says what was wrong, never what was sent: the presented value may be a real secret mistyped.
        LOG.fine(() -> "Refused an operator API request from " + request.getRemoteAddr() + " to "
                + request.getRequestURI() + ": " + detail);
        response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
        response.setHeader("WWW-Authenticate", challenge);
        response.setContentType(Problems.MEDIA_TYPE);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter().write(Problems.json(HttpServletResponse.SC_UNAUTHORIZED, "unauthorized",
                "Unauthorized", detail, request.getRequestURI()));
    }
}
