package dev.hookstile.operator.control;

import dev.hookstile.metrics.boundary.Counter;
import dev.hookstile.metrics.boundary.Metrics;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.Config;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * Who may use the operator API, decided in one place for both doors to it (the servlet filter on {@code /api/*} and
 * the JAX-RS filter on every operator resource) and for the console's sign-in: the client's address must be in
 * {@code hookstile.admin.allowed-addresses} ({@code 403}), a client that failed too often must wait ({@code 429}
 * with {@code Retry-After}, the token not even looked at), and the request must carry the admin token as a bearer
 * token or the cookie of a live console session ({@code 401}). With the cookie, a state-changing method must also
 * carry the session's anti-forgery token in {@code X-CSRF-Token}, and an {@code Origin} header, when sent, must name
 * this server ({@code 403 csrf-token-invalid}): the browser attaches the cookie by itself, so the cookie alone
 * proves nothing about who wrote the request. A sign-in must come from a page of this site as JSON
 * ({@link #beforeSignIn}). Only a wrong token is a failed attempt: whatever another site's page can make the
 * operator's browser send (no token, another scheme, a sign-in of its own) is refused without counting towards the
 * wait, or any page could lock the operator out ({@link CrossSite}: what such a page can send). Every refusal is
 * counted and logged, never with the presented token or session id ({@link GateRefusals}).
 */
@ApplicationScoped
public class OperatorGate {

    public static final String ALLOWED_ADDRESSES = "hookstile.admin.allowed-addresses";
    public static final String ALLOWED_ADDRESSES_VARIABLE = "HOOKSTILE_ADMIN_ALLOWED_ADDRESSES";
    public static final String CHALLENGE = "Bearer realm=\"hookstile\"";
    private static final String SCHEME = "Bearer ";
    /** The one operator path that answers without credentials (POST and GET): signing in, and asking whether one is. */
    public static final String SESSION_PATH = "/api/session";
    private static final Logger LOG = Logger.getLogger(OperatorGate.class.getName());

    /** Why a request was refused: the metric's tag, from this fixed set only. */
    public enum Reason {
        MISSING_TOKEN("missing-token"), WRONG_SCHEME("wrong-scheme"), INVALID_TOKEN("invalid-token"),
        THROTTLED("throttled"), ADDRESS_NOT_ALLOWED("address-not-allowed"), INVALID_SESSION("invalid-session"),
        CSRF_TOKEN_INVALID("csrf-token-invalid"), FOREIGN_ORIGIN("foreign-origin"),
        UNSUPPORTED_MEDIA_TYPE("unsupported-media-type");

        private final String tag;

        Reason(String tag) {
            this.tag = tag;
        }

        public String tag() {
            return tag;
        }
    }

    /** A refusal, ready to be written as problem details by either filter. */
    public record Refusal(Reason reason, int status, String slug, String title, String detail, String challenge,
                          long retryAfterSeconds) {
    }

    @Inject
    Config config;

    @Inject
    AdminToken adminToken;

    @Inject
    Metrics metrics;

    @Inject
    ConsoleSessions sessions;

    private final FailedAttempts attempts;
    private final GateRefusals refusals;
    private AddressAllowlist allowlist;

    public OperatorGate() {
        attempts = new FailedAttempts();
        refusals = new GateRefusals(new EnumMap<>(Reason.class));
    }

    /**
     * What a request presents to the gate, read from it by either door. {@code sessionIds}: the values of every
     * session cookie; {@code host} and {@code forwardedHost}: the {@code Host} and {@code X-Forwarded-Host} headers,
     * what the {@code Origin} of a same-origin request must name.
     */
    public record Request(String address, String method, String path, String authorization, List<String> sessionIds,
                          String csrfToken, String origin, String host, String forwardedHost) {

        /** A request with a bearer token (or none) and no cookie. */
        public static Request bearer(String address, String authorization, String method, String path) {
            return new Request(address, method, path, authorization, List.of(), null, null, null, null);
        }
    }

    /** For unit tests: the gate without a container. */
    OperatorGate(AdminToken adminToken, AddressAllowlist allowlist, FailedAttempts attempts,
                 Map<Reason, Counter> failures, ConsoleSessions sessions) {
        this.adminToken = adminToken;
        this.sessions = sessions;
        this.allowlist = allowlist;
        this.attempts = attempts;
        this.refusals = new GateRefusals(failures);
    }

    /** At deployment: a malformed allowlist must fail the start, not the first operator call. */
    void eager(@Observes @Initialized(ApplicationScoped.class) Object applicationStarted) {
        // Observing the event instantiates the bean.
    }

    @PostConstruct
    void configure() {
        Optional<String> setting = config.getOptionalValue(ALLOWED_ADDRESSES, String.class);
        try {
            allowlist = AddressAllowlist.parse(setting);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(ALLOWED_ADDRESSES_VARIABLE + " (" + ALLOWED_ADDRESSES + "): "
                    + e.getMessage(), e);
        }
        if (!allowlist.allowsAll()) {
            LOG.info(() -> "Operator API answers only " + allowlist + " (" + ALLOWED_ADDRESSES_VARIABLE + ")");
        }
        refusals.register(metrics);
    }

    /** {@code null} when a request with only a bearer token (or none) may proceed, else the answer to give. */
    public Refusal check(String address, String authorization, String method, String path) {
        return check(Request.bearer(address, authorization, method, path));
    }

    /** {@code null} when the request may proceed, else the answer to give. */
    public Refusal check(Request request) {
        Refusal unreachable = reach(request);
        if (unreachable != null) {
            return unreachable;
        }
        String address = request.address();
        String authorization = request.authorization();
        // A bearer token, when sent, decides alone: a browser never adds one by itself, so it needs no anti-forgery
        // token, and a wrong one is a guess whatever cookie comes with it. Any other scheme (a proxy's Basic
        // credentials, which a browser also attaches by itself) is not this API's: beside a cookie, the cookie decides.
        if (!bearer(authorization) && !request.sessionIds().isEmpty()) {
            return checkSession(request);
        }
        if (authorization == null || authorization.isBlank()) {
            // Counted and logged, but not a guess: any web page can make the operator's browser send such a request,
            // and if it counted towards the wait, a hostile page could lock the operator's address out of /api.
            return refusals.refuse(Reason.MISSING_TOKEN, attempts.refused(address), request, 401,
                    "unauthorized", "Unauthorized", "this is the operator API: send the admin token as "
                            + "'Authorization: Bearer <token>' (" + AdminToken.ENVIRONMENT_VARIABLE
                            + ", or the token in <data dir>/" + AdminToken.FILE_NAME + "), or sign in to the "
                            + "console (POST " + SESSION_PATH + ")", CHALLENGE);
        }
        if (!bearer(authorization)) {
            // Counted, but not a guess: no token was compared, and a browser sends a proxy's Basic credentials to
            // this host by itself, from any page; counted as failures, they would let a hostile page lock an address
            // out of /api.
            return refusals.refuse(Reason.WRONG_SCHEME, attempts.refused(address), request, 401,
                    "unauthorized", "Unauthorized", "the operator API accepts only the Bearer scheme: "
                            + "'Authorization: Bearer <token>'", CHALLENGE);
        }
        if (!adminToken.matches(authorization.substring(SCHEME.length()).trim())) {
            return refusals.refuse(Reason.INVALID_TOKEN, attempts.failed(address), request, 401,
                    "unauthorized", "Unauthorized", "the bearer token is not the admin token ("
                            + AdminToken.ENVIRONMENT_VARIABLE + ", or the token in <data dir>/" + AdminToken.FILE_NAME
                            + ")", CHALLENGE + ", error=\"invalid_token\"");
        }
        attempts.succeeded(address);
        return null;
    }

    /**
     * Whether the client may reach the operator API at all, credentials aside: its address is allowed and it is not
     * waiting out its failures. {@code null} when it may. {@code GET /api/session} asks only this (it presents no
     * credential, only asks whether its cookie is signed in); every other check begins with it.
     */
    public Refusal reach(String address, String method, String path) {
        return reach(Request.bearer(address, null, method, path));
    }

    private Refusal reach(Request request) {
        String address = request.address();
        if (!allowlist.allows(address)) {
            return refusals.refuse(Reason.ADDRESS_NOT_ALLOWED, attempts.refused(address), request, 403,
                    "forbidden", "Forbidden", "the operator API does not answer this address ("
                            + ALLOWED_ADDRESSES_VARIABLE + ")", null);
        }
        FailedAttempts.Verdict waiting = attempts.beforeCheck(address);
        if (waiting.delayed()) {
            return refusals.refuse(Reason.THROTTLED, waiting, request, 429, "too-many-failures",
                    "Too many requests", "too many failed attempts from this address: wait "
                            + waiting.retryAfterSeconds() + " s (Retry-After) before the next one", null);
        }
        return null;
    }

    /**
     * Whether a sign-in ({@code POST /api/session}) may have its body read at all, asked before a byte of it is: the
     * address is allowed and not waiting out its failures, the request comes from a page of this site ({@code Origin}
     * names the host it was sent to; {@code 403}) and its body is declared {@code application/json} ({@code 415}).
     * Neither refusal is a guess: a page of any site can make the operator's browser post a sign-in, but only as
     * {@code text/plain} or a form (anything else needs a CORS preflight, which this API never grants), or with its
     * own {@code Origin}; counted as failures, such posts would lock the operator's address out. {@code null} when
     * the body may be read.
     */
    public Refusal beforeSignIn(Request request, String contentType) {
        Refusal unreachable = reach(request);
        if (unreachable != null) {
            return unreachable;
        }
        String address = request.address();
        if (request.origin() == null
                || !CrossSite.sameOrigin(request.origin(), request.host(), request.forwardedHost())) {
            return refusals.refuse(Reason.FOREIGN_ORIGIN, attempts.refused(address), request, 403,
                    "foreign-origin", "Forbidden", "a sign-in must come from a page of this site: its Origin header "
                            + "must name the host the request was sent to (Host, or X-Forwarded-Host from a proxy)",
                    null);
        }
        if (!CrossSite.json(contentType)) {
            return refusals.refuse(Reason.UNSUPPORTED_MEDIA_TYPE, attempts.refused(address), request, 415,
                    "unsupported-media-type", "Unsupported media type", "a sign-in is 'Content-Type: "
                            + "application/json' with {\"token\":\"<admin token>\"}", null);
        }
        return null;
    }

    /**
     * Signing in to the console ({@code POST /api/session}): {@link #beforeSignIn} first, then the admin token from
     * the body, throttled and counted exactly like a bearer token. {@code null} when it is the admin token: open the
     * session.
     */
    public Refusal signIn(Request request, String contentType, String token) {
        Refusal refused = beforeSignIn(request, contentType);
        if (refused != null) {
            return refused;
        }
        String address = request.address();
        if (token == null || token.isBlank()) {
            // Not a guess either: a hostile page can post an empty sign-in from the operator's browser.
            return refusals.refuse(Reason.MISSING_TOKEN, attempts.refused(address), request, 401,
                    "unauthorized", "Unauthorized", "send the admin token as {\"token\":\"<token>\"} ("
                            + AdminToken.ENVIRONMENT_VARIABLE + ", or the token in <data dir>/"
                            + AdminToken.FILE_NAME + ")", CHALLENGE);
        }
        if (!adminToken.matches(token.trim())) {
            return refusals.refuse(Reason.INVALID_TOKEN, attempts.failed(address), request, 401,
                    "unauthorized", "Unauthorized", "the admin token is wrong: it is " + AdminToken.ENVIRONMENT_VARIABLE
                            + ", or the token in <data dir>/" + AdminToken.FILE_NAME,
                    CHALLENGE + ", error=\"invalid_token\"");
        }
        attempts.succeeded(address);
        return null;
    }

    /** Whether the method and path (decoded, below the context) are the sign-in's, open without credentials. */
    public static boolean opensWithoutCredentials(String method, String path) {
        return SESSION_PATH.equals(path) && ("POST".equals(method) || "GET".equals(method));
    }

    private Refusal checkSession(Request request) {
        String address = request.address();
        ConsoleSessions.Opened live = sessions.firstLive(request.sessionIds());
        // Not a failed attempt: a session id is 256 random bits, never guessed; the usual cause is a session that
        // expired under an open page, which must not make its operator wait at the next sign-in.
        if (live == null) {
            return refusals.refuse(Reason.INVALID_SESSION, attempts.refused(address), request, 401,
                    "unauthorized", "Unauthorized", "the console session has ended (signed out, idle too long, "
                            + "or another server instance): sign in again (POST " + SESSION_PATH + "), or send "
                            + "'Authorization: Bearer <token>'", CHALLENGE);
        }
        if (request.origin() != null
                && !CrossSite.sameOrigin(request.origin(), request.host(), request.forwardedHost())) {
            return refusals.refuse(Reason.FOREIGN_ORIGIN, attempts.refused(address), request, 403,
                    "csrf-token-invalid", "Forbidden", "the request comes from another site's page (Origin): "
                            + "the console session opens nothing there", null);
        }
        if (!CrossSite.safe(request.method()) && !live.session().csrfMatches(request.csrfToken())) {
            return refusals.refuse(Reason.CSRF_TOKEN_INVALID, attempts.refused(address), request, 403,
                    "csrf-token-invalid", "Forbidden", "with the console session's cookie, a "
                            + GateRefusals.clean(request.method(), 16)
                            + " needs the session's anti-forgery token in X-CSRF-Token (GET " + SESSION_PATH
                            + " gives it)", null);
        }
        sessions.use(live.id());
        attempts.succeeded(address);
        return null;
    }

    private static boolean bearer(String authorization) {
        return authorization != null && authorization.regionMatches(true, 0, SCHEME, 0, SCHEME.length());
    }
}
