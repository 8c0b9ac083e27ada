package dev.hookstile.operator.boundary;

import dev.hookstile.operator.control.ConsoleSessions;
import dev.hookstile.operator.control.OperatorGate;
import dev.hookstile.web.boundary.Problems;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.logging.Logger;

/**
 * The console's sign-in: {@code POST /api/session} trades the admin token for a session cookie and the session's
 * anti-forgery token; {@code GET} gives a reloaded page its anti-forgery token again; {@code DELETE} signs out.
 *
 * <p>{@code POST} and {@code GET} answer without credentials (that is their point), so they are not
 * {@link OperatorOnly}: each asks {@link OperatorGate} itself, which applies the address allowlist and the failure
 * throttle and counts a wrong token like a wrong bearer token. A sign-in must come from a page of this site
 * ({@code Origin}) as {@code application/json}, else it is refused ({@code 403}, {@code 415}) before its body is read,
 * and not counted as a guess; {@link OperatorAuthentication} asks the same before the body is gathered (under the
 * body deadline and the shared budget, {@code BodyBuffer}), so the body read here has already arrived.
 * {@code DELETE} changes state and is
 * {@link OperatorOnly} like every other operator call (the cookie and {@code X-CSRF-Token}, or the bearer token).
 */
@Path("api/session")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
public class SessionResource {

    /** A sign-in body is {@code {"token":"..."}}: a few dozen bytes. Beyond this nothing is read. */
    static final int MAX_BODY_BYTES = 4096;
    private static final JsonProvider JSON = JsonProvider.provider();
    private static final Logger LOG = Logger.getLogger(SessionResource.class.getName());

    @Inject
    OperatorGate gate;

    @Inject
    ConsoleSessions sessions;

    @POST
    public Response signIn(@Context HttpServletRequest request, InputStream body) {
        OperatorGate.Request presented = SessionCookie.presented(request, "POST");
        // Asked again here, before the body is read: the servlet door asked already, but this is where it is read.
        OperatorGate.Refusal refusal = gate.beforeSignIn(presented, request.getContentType());
        if (refusal == null) {
            refusal = gate.signIn(presented, request.getContentType(), token(body));
        }
        if (refusal != null) {
            return OperatorOnlyFilter.answer(refusal);
        }
        // A session the browser already had ends here: whoever could plant a cookie must not share the new one.
        SessionCookie.values(request).forEach(sessions::end);
        ConsoleSessions.Opened opened = sessions.open();
        LOG.info(() -> "Console signed in from " + request.getRemoteAddr());
        return Response.status(Response.Status.CREATED)
                .header("Set-Cookie", SessionCookie.open(opened.id(), request))
                .entity(answer(opened.session()))
                .build();
    }

    @GET
    public Response current(@Context HttpServletRequest request) {
        OperatorGate.Refusal refusal = gate.reach(request.getRemoteAddr(), "GET", request.getRequestURI());
        if (refusal != null) {
            return OperatorOnlyFilter.answer(refusal);
        }
        for (String id : SessionCookie.values(request)) {
            ConsoleSessions.Session session = sessions.use(id);
            if (session != null) {
                return Response.ok(answer(session)).build();
            }
        }
        // The question a page asks at every load; "no" is not a failed attempt, so neither counted nor throttled.
        return Problems.of(401, "unauthorized", "Unauthorized", "not signed in: POST " + OperatorGate.SESSION_PATH
                        + " with {\"token\":\"<admin token>\"}", null)
                .header("WWW-Authenticate", OperatorGate.CHALLENGE)
                .build();
    }

    @DELETE
    @OperatorOnly
    public Response signOut(@Context HttpServletRequest request) {
        List<String> ids = SessionCookie.values(request);
        ids.forEach(sessions::end);
        if (!ids.isEmpty()) {
            LOG.info(() -> "Console signed out from " + request.getRemoteAddr());
        }
        return Response.noContent().header("Set-Cookie", SessionCookie.clear(request)).build();
    }

    private String answer(ConsoleSessions.Session session) {
        return JSON.createObjectBuilder()
                .add("csrfToken", session.csrfToken())
                .add("idleTimeoutSeconds", sessions.idleTimeoutSeconds())
                .build().toString();
    }

    /** The {@code token} string of a small JSON object, else {@code null} (refused as a missing token). */
    static String token(InputStream body) {
        if (body == null) {
            return null;
        }
        try {
            byte[] bytes = body.readNBytes(MAX_BODY_BYTES + 1);
            if (bytes.length > MAX_BODY_BYTES) {
                return null;
            }
            JsonValue json = JSON.createReader(new StringReader(new String(bytes, StandardCharsets.UTF_8))).readValue();
            if (json instanceof JsonObject object && object.get("token") instanceof JsonString token) {
                return token.getString();
            }
            return null;
        } catch (IOException | JsonException e) {
            return null;
        }
    }
}
