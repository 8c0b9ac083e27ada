package dev.hookstile.operator.control;

import dev.hookstile.operator.boundary.AdminToken;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * Who may use the operator API, decided in one place for both doors to it (the servlet filter on {@code /api/*} and
 * the JAX-RS filter on every operator resource): the client's address must be in
 * {@code hookstile.admin.allowed-addresses} ({@code 403}), a client that failed too often must wait ({@code 429}
 * with {@code Retry-After}, the token not even looked at), and the request must carry the admin token as a bearer
 * token ({@code 401}). Every refusal is counted ({@code hookstile_operator_auth_failures_total{reason}}) and logged
 * at WARNING, rate-limited per client, never with the presented token.
 */
@ApplicationScoped
public class OperatorGate {

    public static final String ALLOWED_ADDRESSES = "hookstile.admin.allowed-addresses";
    public static final String ALLOWED_ADDRESSES_VARIABLE = "HOOKSTILE_ADMIN_ALLOWED_ADDRESSES";
    public static final String CHALLENGE = "Bearer realm=\"hookstile\"";
    private static final String SCHEME = "Bearer ";
    private static final int MAX_LOGGED_PATH = 200;
    private static final Logger LOG = Logger.getLogger(OperatorGate.class.getName());

    /** Why a request was refused: the metric's tag, from this fixed set only. */
    public enum Reason {
        MISSING_TOKEN("missing-token"), WRONG_SCHEME("wrong-scheme"), INVALID_TOKEN("invalid-token"),
        THROTTLED("throttled"), ADDRESS_NOT_ALLOWED("address-not-allowed");

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
    MetricRegistry registry;

    private final FailedAttempts attempts;
    private final Map<Reason, Counter> failures = new EnumMap<>(Reason.class);
    private AddressAllowlist allowlist;

    public OperatorGate() {
        attempts = new FailedAttempts();
    }

    /** For unit tests: the gate without a container. */
    OperatorGate(AdminToken adminToken, AddressAllowlist allowlist, FailedAttempts attempts,
                 Map<Reason, Counter> failures) {
        this.adminToken = adminToken;
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
        var metadata = Metadata.builder().withName("hookstile.operator.auth.failures")
                .withDescription("Operator API requests refused, by reason").build();
        for (Reason reason : Reason.values()) {
            failures.put(reason, registry.counter(metadata, new Tag("reason", reason.tag())));
        }
    }

    /** {@code null} when the request may proceed, else the answer to give. */
    public Refusal check(String address, String authorization, String method, String path) {
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
        if (authorization == null || authorization.isBlank()) {
            return refuse(Reason.MISSING_TOKEN, attempts.failed(address), address, method, path, 401,
                    "unauthorized", "Unauthorized", "this is the operator API: send the admin token as "
                            + "'Authorization: Bearer <token>' (" + AdminToken.ENVIRONMENT_VARIABLE
                            + ", or the token in <data dir>/" + AdminToken.FILE_NAME + ")", CHALLENGE);
        }
        if (!authorization.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
            return refuse(Reason.WRONG_SCHEME, attempts.failed(address), address, method, path, 401,
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

    private Refusal refuse(Reason reason, FailedAttempts.Verdict verdict, String address, String method, String path,
                           int status, String slug, String title, String detail, String challenge) {
        failures.get(reason).inc();
        if (verdict.log()) {
            // What was wrong and where, never what was sent: the presented value may be a real secret mistyped.
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
