package dev.hookstile.processing.control;

import dev.hookstile.MapConfig;
import dev.hookstile.api.PermanentFailure;
import dev.hookstile.api.TransientFailure;
import dev.hookstile.processing.control.Failure.Kind;
import jakarta.json.JsonException;
import jakarta.persistence.LockTimeoutException;
import jakarta.validation.ValidationException;
import jakarta.ws.rs.WebApplicationException;
import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.charset.MalformedInputException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FailureClassifierTest {

    private static final FailureClassifier DEFAULT = new FailureClassifier(new MapConfig(Map.of()));

    private static Kind kind(Throwable failure) {
        return DEFAULT.classify(failure).kind();
    }

    private static WebApplicationException http(int status) {
        return new WebApplicationException(new StatusOnlyResponse(status));
    }

    @Test
    void handlersDeclareTheirFailuresWhateverTheCause() {
        assertEquals(Kind.TRANSIENT, kind(new TransientFailure("busy", new IllegalArgumentException("x"))));
        assertEquals(Kind.PERMANENT, kind(new PermanentFailure("bad order", new IOException("x"))));
    }

    @Test
    void declarationDeepInTheCauseChainWinsOverTheWrapper() {
        assertEquals(Kind.PERMANENT, kind(new IllegalStateException("wrapped", new PermanentFailure("rejected"))));
    }

    @Test
    void connectionLossTimeoutsAndIoAreTransient() {
        assertEquals(Kind.TRANSIENT, kind(new SQLTransientConnectionException("gone")));
        assertEquals(Kind.TRANSIENT, kind(new SQLException("connection refused", "08001")));
        assertEquals(Kind.TRANSIENT, kind(new SQLException("deadlock", "40P01")));
        assertEquals(Kind.TRANSIENT, kind(new SocketTimeoutException("read timed out")));
        assertEquals(Kind.TRANSIENT, kind(new TimeoutException()));
        assertEquals(Kind.TRANSIENT, kind(new LockTimeoutException("lock")));
        assertEquals(Kind.TRANSIENT, kind(new CircuitBreakerOpenException("open")));
    }

    @Test
    void httpStatusesFromTheJaxRsClientAreClassifiedByStatus() {
        assertEquals(Kind.TRANSIENT, kind(http(408)));
        assertEquals(Kind.TRANSIENT, kind(http(429)));
        assertEquals(Kind.TRANSIENT, kind(http(503)));
        assertEquals(Kind.PERMANENT, kind(http(400)));
        assertEquals(Kind.PERMANENT, kind(http(403)));
        assertEquals(Kind.PERMANENT, kind(http(422)));
    }

    @Test
    void validationParsingAuthorizationAndDataErrorsArePermanent() {
        assertEquals(Kind.PERMANENT, kind(new ValidationException("amount must be positive")));
        assertEquals(Kind.PERMANENT, kind(new NumberFormatException("x")));
        assertEquals(Kind.PERMANENT, kind(new DateTimeParseException("bad", "x", 0)));
        assertEquals(Kind.PERMANENT, kind(new JsonException("bad json")));
        assertEquals(Kind.PERMANENT, kind(new SecurityException("denied")));
        assertEquals(Kind.PERMANENT, kind(new SQLException("value too long", "22001")));
        assertEquals(Kind.PERMANENT, kind(new NullPointerException()));
    }

    @Test
    void theMostSpecificListedTypeWins() {
        // An I/O exception, but a decoding error: the same bytes fail the same way every time.
        assertEquals(Kind.PERMANENT, kind(new MalformedInputException(1)));
    }

    @Test
    void unknownFailuresAreTransientByDefaultAndConfigurable() {
        assertEquals(Kind.TRANSIENT, kind(new IllegalStateException("who knows")));
        var permanentByDefault = new FailureClassifier(new MapConfig(Map.of(
                "hookstile.processing.unclassified-failures", "permanent")));
        assertEquals(Kind.PERMANENT, permanentByDefault.classify(new IllegalStateException("who knows")).kind());
    }

    @Test
    void configuredTypesOverrideTheBuiltInListsAndMatchSubclasses() {
        var configured = new FailureClassifier(new MapConfig(Map.of(
                "hookstile.processing.permanent-failures", "java.io.FileNotFoundException",
                "hookstile.processing.transient-failures", "java.lang.IllegalStateException, com.example.Missing")));

        assertEquals(Kind.PERMANENT, configured.classify(new java.io.FileNotFoundException("gone")).kind());
        assertEquals(Kind.TRANSIENT, configured.classify(new IOException("other")).kind());
        assertEquals(Kind.TRANSIENT, configured.classify(new java.nio.channels.IllegalBlockingModeException()).kind(),
                "a subclass of a configured type");
    }

    @Test
    void anUnknownFallbackIsAConfigurationError() {
        var error = assertThrows(IllegalStateException.class, () -> new FailureClassifier(new MapConfig(Map.of(
                "hookstile.processing.unclassified-failures", "sometimes"))));
        assertTrue(error.getMessage().contains("HOOKSTILE_PROCESSING_UNCLASSIFIED_FAILURES"));
    }

    @Test
    void summaryNamesTheChainOnOneBoundedLine() {
        Failure failure = DEFAULT.classify(new IllegalStateException("outer\nline", new IOException("x".repeat(5000))));

        assertTrue(failure.summary().startsWith("java.lang.IllegalStateException: outer line <- java.io.IOException: x"),
                failure.summary());
        assertTrue(failure.summary().length() <= Failure.MAX_SUMMARY);
        assertTrue(failure.summary().chars().noneMatch(Character::isISOControl));
    }
}
