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
 * wait, or any page could lock the operator out. Every refusal is counted
 * ({@code hookstile_operator_auth_failures_total{reason}}) and logged at WARNING, rate-limited per client, never with
 * the presented token or session id.
 *
 * <p>Longer than 300 lines because both doors and the sign-in share these checks, their counting and their rate-
 * limited logging, and one place keeps them the same.
 */
@ApplicationScoped
public class OperatorGate {

    public static final String ALLOWED_ADDRESSES = "hookstile.admin.allowed-addresses";
    public static final String ALLOWED_ADDRESSES_VARIABLE = "HOOKSTILE_ADMIN_ALLOWED_ADDRESSES";
    public static final String CHALLENGE = "Bearer realm=\"hookstile\"";
    private static final String SCHEME = "Bearer ";
    /** The one operator path that answers without credentials (POST and GET): signing in, and asking whether one is. */
    public static final String SESSION_PATH = "/api/session";
    /** A request may bring several cookies of the name (one planted by a sibling domain); more are not looked at. */
    private static final int MAX_SESSION_COOKIES = 4;
    private static final int MAX_LOGGED_PATH = 200;
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
    private final Map<Reason, Counter> failures = new EnumMap<>(Reason.class);
    private AddressAllowlist allowlist;

    public OperatorGate() {
        attempts = new FailedAttempts();
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
        this.failures.putAll(failures);
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
        var family = metrics.counter("hookstile_operator_auth_failures_total",
                "Operator API requests refused, by reason", "reason");
        for (Reason reason : Reason.values()) {
            failures.put(reason, family.labels(reason.tag()));
        }
    }

    /** {@code null} when a request with only a bearer token (or none) may proceed, else the answer to give. */
    public Refusal check(String address, String authorization, String method, String path) {
        return check(Request.bearer(address, authorization, method, path));
    }

    /** {@code null} when the request may proceed, else the answer to give. */
    public Refusal check(Request request) {
        String address = request.address();
        String method = request.method();
        String path = request.path();
        Refusal unreachable = reach(address, method, path);
        if (unreachable != null) {
            return unreachable;
        }
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
            return refuse(Reason.MISSING_TOKEN, attempts.refused(address), address, method, path, 401,
                    "unauthorized", "Unauthorized", "this is the operator API: send the admin token as "
                            + "'Authorization: Bearer <token>' (" + AdminToken.ENVIRONMENT_VARIABLE
                            + ", or the token in <data dir>/" + AdminToken.FILE_NAME + "), or sign in to the "
                            + "console (POST " + SESSION_PATH + ")", CHALLENGE);
        }
        if (!bearer(authorization)) {
            // Counted, but not a guess: no token was compared, and a browser sends a proxy's Basic credentials to
            // this host by itself, from any page; counted as failures, they would let a hostile page lock an address
            // out of /api.
            return refuse(Reason.WRONG_SCHEME, attempts.refused(address), address, method, path, 401,
                    "unauthorized", "Unauthorized", "the operator API accepts only the Bearer scheme: "
                            + "'Authorization: Bearer <token>'", CHALLENGE);
        }
        if (!adminToken.matches(authorization.substring(SCHEME.length()).trim())) {
            return refuse(Reason.INVALID_TOKEN, attempts.failed(address), address, method, path, 401,
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
        if (!allowlist.allows(address)) {
            return refuse(Reason.ADDRESS_NOT_ALLOWED, attempts.refused(address), address, method, path, 403,
                    "forbidden", "Forbidden", "the operator API does not answer this address ("
                            + ALLOWED_ADDRESSES_VARIABLE + ")", null);
        }
        FailedAttempts.Verdict waiting = attempts.beforeCheck(address);
        if (waiting.delayed()) {
            return refuse(Reason.THROTTLED, waiting, address, method, path, 429, "too-many-failures",
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
        String address = request.address();
        String method = request.method();
        String path = request.path();
        Refusal unreachable = reach(address, method, path);
        if (unreachable != null) {
            return unreachable;
        }
        if (request.origin() == null || !sameOrigin(request.origin(), request.host(), request.forwardedHost())) {
            return refuse(Reason.FOREIGN_ORIGIN, attempts.refused(address), address, method, path, 403,
                    "foreign-origin", "Forbidden", "a sign-in must come from a page of this site: its Origin header "
                            + "must name the host the request was sent to (Host, or X-Forwarded-Host from a proxy)",
                    null);
        }
        if (!json(contentType)) {
            return refuse(Reason.UNSUPPORTED_MEDIA_TYPE, attempts.refused(address), address, method, path, 415,
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
        String method = request.method();
        String path = request.path();
        if (token == null || token.isBlank()) {
            // Not a guess either: a hostile page can post an empty sign-in from the operator's browser.
            return refuse(Reason.MISSING_TOKEN, attempts.refused(address), address, method, path, 401,
                    "unauthorized", "Unauthorized", "send the admin token as {\"token\":\"<token>\"} ("
                            + AdminToken.ENVIRONMENT_VARIABLE + ", or the token in <data dir>/"
                            + AdminToken.FILE_NAME + ")", CHALLENGE);
        }
        if (!adminToken.matches(token.trim())) {
            return refuse(Reason.INVALID_TOKEN, attempts.failed(address), address, method, path, 401,
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
        String method = request.method();
        String path = request.path();
        String id = null;
        ConsoleSessions.Session session = null;
        for (String candidate : request.sessionIds().subList(0,
                Math.min(request.sessionIds().size(), MAX_SESSION_COOKIES))) {
            session = sessions.find(candidate);
            if (session != null) {
                id = candidate;
                break;
            }
        }
        // Not a failed attempt: a session id is 256 random bits, never guessed; the usual cause is a session that
        // expired under an open page, which must not make its operator wait at the next sign-in.
        if (session == null) {
            return refuse(Reason.INVALID_SESSION, attempts.refused(address), address, method, path, 401,
                    "unauthorized", "Unauthorized", "the console session has ended (signed out, idle too long, "
                            + "or another server instance): sign in again (POST " + SESSION_PATH + "), or send "
                            + "'Authorization: Bearer <token>'", CHALLENGE);
        }
        if (request.origin() != null && !sameOrigin(request.origin(), request.host(), request.forwardedHost())) {
            return refuse(Reason.FOREIGN_ORIGIN, attempts.refused(address), address, method, path, 403,
                    "csrf-token-invalid", "Forbidden", "the request comes from another site's page (Origin): "
                            + "the console session opens nothing there", null);
        }
        if (!safe(method) && !session.csrfMatches(request.csrfToken())) {
            return refuse(Reason.CSRF_TOKEN_INVALID, attempts.refused(address), address, method, path, 403,
                    "csrf-token-invalid", "Forbidden", "with the console session's cookie, a " + clean(method, 16)
                            + " needs the session's anti-forgery token in X-CSRF-Token (GET " + SESSION_PATH
                            + " gives it)", null);
        }
        sessions.use(id);
        attempts.succeeded(address);
        return null;
    }

    private static boolean bearer(String authorization) {
        return authorization != null && authorization.regionMatches(true, 0, SCHEME, 0, SCHEME.length());
    }

    /** {@code application/json}, with parameters or without, in any case. */
    static boolean json(String contentType) {
        if (contentType == null) {
            return false;
        }
        int semicolon = contentType.indexOf(';');
        String type = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim();
        return type.equalsIgnoreCase("application/json");
    }

    static boolean safe(String method) {
        return "GET".equals(method) || "HEAD".equals(method) || "OPTIONS".equals(method);
    }

    /**
     * Whether {@code origin} ({@code scheme://host[:port]}) names the host the request was sent to ({@code Host},
     * or {@code X-Forwarded-Host} from a proxy; a cross-site page can set neither). The scheme is not compared: a
     * proxy ending TLS turns https into http, and a page on the same host under the other scheme is the same site.
     */
    static boolean sameOrigin(String origin, String host, String forwardedHost) {
        int colon = origin.indexOf("://");
        if (colon <= 0) {
            return false; // "null" (sandboxed frames, some redirects) and anything else malformed
        }
        String authority = authority(origin.substring(colon + 3));
        if (authority.isEmpty() || authority.contains("/")) {
            return false;
        }
        return authority.equals(authority(host)) || (forwardedHost != null
                && authority.equals(authority(forwardedHost.split(",", 2)[0])));
    }

    /** Host and port in lower case, without a default port (80, 443). */
    private static String authority(String value) {
        if (value == null) {
            return "";
        }
        String authority = value.trim().toLowerCase(java.util.Locale.ROOT);
        if (authority.endsWith(":80")) {
            return authority.substring(0, authority.length() - 3);
        }
        if (authority.endsWith(":443")) {
            return authority.substring(0, authority.length() - 4);
        }
        return authority;
    }

    private Refusal refuse(Reason reason, FailedAttempts.Verdict verdict, String address, String method, String path,
                           int status, String slug, String title, String detail, String challenge) {
        failures.get(reason).inc();
        if (verdict.log()) {
            // What was wrong and where, never what was sent: the presented value may be a real secret mistyped, or a
            // live session id.
            LOG.warning("Refused an operator API request (" + reason.tag() + ") from " + clean(address, 64) + ": "
                    + clean(method, 16) + " " + clean(path, MAX_LOGGED_PATH)
                    + (verdict.delayed() ? "; it must wait " + verdict.retryAfterSeconds() + " s" : "")
                    + (verdict.suppressedBefore() > 0 ? "; " + verdict.suppressedBefore()
                            + " more refusals from this address since its last line were not logged" : ""));
        }
        // Retry-After only where the wait is enforced: the failure that starts it is an ordinary 401.
        return new Refusal(reason, status, slug, title, detail, challenge,
                reason == Reason.THROTTLED ? verdict.retryAfterSeconds() : 0);
    }

    /** A client-controlled value as one printable, bounded line: no forged log lines, no terminal escapes. */
    static String clean(String value, int max) {
        if (value == null) {
            return "-";
        }
        int length = Math.min(value.length(), max);
        StringBuilder clean = new StringBuilder(length + 3);
        for (int i = 0; i < length; i++) {
            char c = value.charAt(i);
            clean.append(c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || Character.isSurrogate(c)
                    || c == '\u2028' || c == '\u2029' ? '?' : c);
        }
        if (value.length() > max) {
            clean.append("...");
        }
        return clean.toString();
    }
}
