package dev.hookstile.operator.control;

import dev.hookstile.metrics.boundary.Counter;
import dev.hookstile.metrics.boundary.Metrics;
import dev.hookstile.operator.control.OperatorGate.Reason;
import dev.hookstile.operator.control.OperatorGate.Refusal;
import dev.hookstile.operator.control.OperatorGate.Request;

import java.util.Map;
import java.util.logging.Logger;

/**
 * Every refusal of the {@link OperatorGate}, counted by reason ({@code hookstile_operator_auth_failures_total}) and
 * logged at WARNING, rate-limited per client ({@link FailedAttempts.Verdict#log}), never with the presented token or
 * session id.
 */
final class GateRefusals {

    // The gate's own logger: its refusals are found where operators (and its tests) look for the gate's lines.
    private static final Logger LOG = Logger.getLogger(OperatorGate.class.getName());
    private static final int MAX_LOGGED_PATH = 200;

    private final Map<Reason, Counter> failures;

    /** @param failures each reason's counter, or an empty map that {@link #register} fills */
    GateRefusals(Map<Reason, Counter> failures) {
        this.failures = failures;
    }

    /** Each reason's counter, at 0 from the start rather than absent until the first refusal. */
    void register(Metrics metrics) {
        var family = metrics.counter("hookstile_operator_auth_failures_total",
                "Operator API requests refused, by reason", "reason");
        for (Reason reason : Reason.values()) {
            failures.put(reason, family.labels(reason.tag()));
        }
    }

    /** The refusal to answer, counted, and logged when the client's verdict says so. */
    Refusal refuse(Reason reason, FailedAttempts.Verdict verdict, Request request, int status, String slug,
                   String title, String detail, String challenge) {
        failures.get(reason).inc();
        if (verdict.log()) {
            // What was wrong and where, never what was sent: the presented value may be a real secret mistyped, or a
            // live session id.
            LOG.warning("Refused an operator API request (" + reason.tag() + ") from " + clean(request.address(), 64)
                    + ": " + clean(request.method(), 16) + " " + clean(request.path(), MAX_LOGGED_PATH)
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
