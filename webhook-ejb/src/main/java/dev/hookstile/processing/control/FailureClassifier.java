package dev.hookstile.processing.control;

import dev.hookstile.api.PermanentFailure;
import dev.hookstile.api.TransientFailure;
import dev.hookstile.processing.control.Failure.Kind;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.WebApplicationException;
import org.eclipse.microprofile.config.Config;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Decides whether a failed attempt is worth trying again. The rule, in this order, for each exception in the cause
 * chain from the outermost in:
 * <ol>
 *     <li>{@link TransientFailure} or {@link PermanentFailure}, thrown by a handler that knows: as it says;</li>
 *     <li>an exception type listed in {@code hookstile.processing.transient-failures} or
 *     {@code hookstile.processing.permanent-failures} (class names; subclasses match);</li>
 *     <li>an HTTP status carried by a JAX-RS exception: 408, 429 and 5xx transient, other 4xx permanent;</li>
 *     <li>a SQL state: connection (08), transaction rollback such as deadlock or serialization (40), insufficient
 *     resources (53), operator intervention (57) transient; data (22) and integrity (23) permanent;</li>
 *     <li>the built-in lists below: I/O, timeouts, lock and connection trouble transient; validation, parsing,
 *     authorization and programming errors permanent.</li>
 * </ol>
 * Anything else is {@code hookstile.processing.unclassified-failures} ({@code transient} by default: retried with
 * back-off until the attempts run out, then dead, so nothing loops forever either way).
 */
@ApplicationScoped
public class FailureClassifier {

    static final Set<String> TRANSIENT = Set.of(
            "java.io.IOException",
            "java.util.concurrent.TimeoutException",
            "java.sql.SQLTransientException",
            "java.sql.SQLRecoverableException",
            "jakarta.persistence.LockTimeoutException",
            "jakarta.persistence.PessimisticLockException",
            "jakarta.persistence.QueryTimeoutException",
            "jakarta.persistence.OptimisticLockException",
            "jakarta.transaction.RollbackException",
            "jakarta.ws.rs.ProcessingException",
            "jakarta.jms.JMSException",
            "org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException",
            "org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException",
            "org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException");

    static final Set<String> PERMANENT = Set.of(
            "java.lang.IllegalArgumentException",
            "java.lang.NullPointerException",
            "java.lang.ClassCastException",
            "java.lang.ArithmeticException",
            "java.lang.IndexOutOfBoundsException",
            "java.lang.UnsupportedOperationException",
            "java.lang.SecurityException",
            "java.time.DateTimeException",
            "jakarta.json.JsonException",
            "jakarta.json.bind.JsonbException",
            "jakarta.validation.ValidationException",
            "jakarta.xml.bind.UnmarshalException",
            "jakarta.security.enterprise.AuthenticationException",
            // errors that the same input reproduces: dead, fixed by a deployment, then replayed
            "java.lang.AssertionError",
            "java.lang.LinkageError",
            "java.lang.StackOverflowError",
            // I/O exceptions that are really parse errors: the same input fails the same way
            "com.fasterxml.jackson.core.JsonProcessingException",
            "java.io.CharConversionException",
            "java.nio.charset.CharacterCodingException");

    @Inject
    Config config;

    private Set<String> configuredTransient = Set.of();
    private Set<String> configuredPermanent = Set.of();
    private Kind unclassified = Kind.TRANSIENT;

    public FailureClassifier() {
    }

    /** For unit tests: the rule with the given configuration. */
    FailureClassifier(Config config) {
        this.config = config;
        configure();
    }

    @PostConstruct
    void configure() {
        configuredTransient = names("hookstile.processing.transient-failures");
        configuredPermanent = names("hookstile.processing.permanent-failures");
        String fallback = config.getOptionalValue("hookstile.processing.unclassified-failures", String.class)
                .orElse("transient").trim().toUpperCase(Locale.ROOT);
        try {
            unclassified = Kind.valueOf(fallback);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("hookstile.processing.unclassified-failures (HOOKSTILE_PROCESSING_"
                    + "UNCLASSIFIED_FAILURES) must be 'transient' or 'permanent', not '" + fallback + "'");
        }
    }

    private Set<String> names(String property) {
        return config.getOptionalValue(property, String[].class)
                .map(values -> new HashSet<>(Arrays.stream(values).map(String::trim).filter(v -> !v.isEmpty()).toList()))
                .map(Set::copyOf)
                .orElse(Set.of());
    }

    public Failure classify(Throwable failure) {
        return new Failure(kindOf(failure), Failure.summarise(failure), java.time.Instant.now());
    }

    Kind kindOf(Throwable failure) {
        List<Throwable> chain = new ArrayList<>();
        for (Throwable t = failure; t != null && !chain.contains(t) && chain.size() < 32; t = t.getCause()) {
            chain.add(t);
        }
        for (Throwable t : chain) {
            Kind kind = declared(t);
            if (kind != null) {
                return kind;
            }
        }
        for (Throwable t : chain) {
            Kind kind = inferred(t);
            if (kind != null) {
                return kind;
            }
        }
        return unclassified;
    }

    private Kind declared(Throwable t) {
        if (t instanceof TransientFailure) {
            return Kind.TRANSIENT;
        }
        if (t instanceof PermanentFailure) {
            return Kind.PERMANENT;
        }
        return byType(t, configuredTransient, configuredPermanent);
    }

    private static Kind inferred(Throwable t) {
        if (t instanceof WebApplicationException web && web.getResponse() != null) {
            int status = web.getResponse().getStatus();
            if (status == 408 || status == 429 || status >= 500) {
                return Kind.TRANSIENT;
            }
            if (status >= 400) {
                return Kind.PERMANENT;
            }
        }
        if (t instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().length() >= 2) {
            switch (sql.getSQLState().substring(0, 2)) {
                case "08", "40", "53", "57" -> {
                    return Kind.TRANSIENT;
                }
                case "22", "23" -> {
                    return Kind.PERMANENT;
                }
                default -> {
                    // fall through to the type lists
                }
            }
        }
        return byType(t, TRANSIENT, PERMANENT);
    }

    /**
     * The most specific listed type wins (a JSON parse error is an IOException, but a permanent one). By name, so a
     * configured type need not be on our class path.
     */
    private static Kind byType(Throwable t, Set<String> transientTypes, Set<String> permanentTypes) {
        for (Class<?> type = t.getClass(); type != null; type = type.getSuperclass()) {
            if (permanentTypes.contains(type.getName())) {
                return Kind.PERMANENT;
            }
            if (transientTypes.contains(type.getName())) {
                return Kind.TRANSIENT;
            }
        }
        return null;
    }
}
