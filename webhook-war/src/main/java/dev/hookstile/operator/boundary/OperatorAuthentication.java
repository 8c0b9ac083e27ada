package dev.hookstile.operator.boundary;

import dev.hookstile.operator.control.AdminToken;
import dev.hookstile.platform.boundary.Problems;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.security.enterprise.AuthenticationStatus;
import jakarta.security.enterprise.authentication.mechanism.http.HttpAuthenticationMechanism;
import jakarta.security.enterprise.authentication.mechanism.http.HttpMessageContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.logging.Logger;

/**
 * Authenticates operators by {@code Authorization: Bearer <admin token>} and puts them in the group {@code operator},
 * the role that {@code WEB-INF/web.xml} requires for {@code /api/*}. Senders are not authenticated here: a webhook
 * proves itself by its signature.
 *
 * <p>Jakarta Security calls the one mechanism of the application for every request, webhooks included, so a request
 * outside the web.xml constraint leaves at once without a header being read. A missing or wrong token is answered
 * here, with {@code 401}, a {@code WWW-Authenticate: Bearer} challenge (RFC 6750) and problem details; answering
 * {@code SEND_FAILURE} leaves that response as it is (the container's own {@code 401} would be an HTML page).
 */
@ApplicationScoped
public class OperatorAuthentication implements HttpAuthenticationMechanism {

    /** The group this mechanism grants and the role web.xml requires; Payara maps the group to the role of that name. */
    public static final String OPERATOR = "operator";
    static final String CHALLENGE = "Bearer realm=\"hookstile\"";
    private static final String SCHEME = "Bearer ";
    private static final Logger LOG = Logger.getLogger(OperatorAuthentication.class.getName());

    @Inject
    AdminToken adminToken;

    @Override
    public AuthenticationStatus validateRequest(HttpServletRequest request, HttpServletResponse response,
                                                HttpMessageContext context) {
        if (!context.isProtected()) {
            return context.doNothing();
        }
        String authorization = request.getHeader("Authorization");
        if (authorization == null || authorization.isBlank()) {
            return refuse(request, response, CHALLENGE, "this is the operator API: send the admin token as "
                    + "'Authorization: Bearer <token>' (" + AdminToken.ENVIRONMENT_VARIABLE
                    + ", or the token in <data dir>/" + AdminToken.FILE_NAME + ")");
        }
        if (!authorization.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
            return refuse(request, response, CHALLENGE, "the operator API accepts only the Bearer scheme: "
                    + "'Authorization: Bearer <token>'");
        }
        if (!adminToken.matches(authorization.substring(SCHEME.length()).trim())) {
            return refuse(request, response, CHALLENGE + ", error=\"invalid_token\"",
                    "the bearer token is not the admin token (" + AdminToken.ENVIRONMENT_VARIABLE
                            + ", or the token in <data dir>/" + AdminToken.FILE_NAME + ")");
        }
        return context.notifyContainerAboutLogin(OPERATOR, Set.of(OPERATOR));
    }

    private static AuthenticationStatus refuse(HttpServletRequest request, HttpServletResponse response,
                                               String challenge, String detail) {
        // The detail says what was wrong, never what was sent: the presented value may be a real secret mistyped.
        LOG.fine(() -> "Refused an operator API request from " + request.getRemoteAddr() + " to "
                + request.getRequestURI() + ": " + detail);
        response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
        response.setHeader("WWW-Authenticate", challenge);
        response.setContentType(Problems.MEDIA_TYPE);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        try {
            response.getWriter().write(Problems.json(HttpServletResponse.SC_UNAUTHORIZED, "unauthorized",
                    "Unauthorized", detail, request.getRequestURI()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return AuthenticationStatus.SEND_FAILURE;
    }
}
