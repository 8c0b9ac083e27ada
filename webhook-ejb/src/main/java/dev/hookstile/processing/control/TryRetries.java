package dev.hookstile.processing.control;

import dev.hookstile.source.Source;
import dev.hookstile.trace.boundary.Tracing;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.faulttolerance.Retry;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * The tries of one delivery, under MicroProfile Fault Tolerance: a transient failure is retried in process, with
 * jitter, a few times; a permanent one, or one that used up the event's attempts, stops at once. A try is a whole
 * transaction ({@link EventTry}), which is what makes retrying it safe: nothing of the failed try survives (a failed
 * SQL statement would have aborted a PostgreSQL transaction, and a transaction marked rollback-only can never commit).
 * What the in-process retries do not fix is left to broker redelivery with exponential back-off.
 *
 * <p>How many retries is the source's setting ({@code HOOKSTILE_SOURCES_<NAME>_RETRIES}, default
 * {@code HOOKSTILE_PROCESSING_RETRIES}, 2), enforced by {@link Attempts#mayRetry()}; the annotation's
 * {@code maxRetries} is only the cap. Delay, jitter and the time limit of a try are the standard Fault Tolerance
 * overrides: {@code dev.hookstile.processing.control.TryRetries/attempt/Retry/delay} (100 ms) and
 * {@code .../Retry/jitter} (50 ms).
 *
 * <p>No {@code @Timeout}: Payara implements it by scheduling a task on a managed executor for every call, and
 * capturing that task's context scanned the class path with a ServiceLoader each time, a third of the consumer's CPU
 * (profiled under load); and an interrupt cannot stop the JDBC wait it was meant to bound. Handlers bound their own
 * I/O with their clients' timeouts.
 */
@ApplicationScoped
public class TryRetries {

    /** A try failed and another may help. */
    static final class RetryableFailure extends RuntimeException {
        RetryableFailure(Failure failure, Throwable cause) {
            super(failure.summary(), cause, false, false);
        }
    }

    /** A try failed and no further in-process try may help or is allowed. */
    static final class FinalFailure extends RuntimeException {
        FinalFailure(Failure failure, Throwable cause) {
            super(failure.summary(), cause, false, false);
        }
    }

    @Inject
    EventTry tries;

    @Inject
    FailureClassifier classifier;

    @Inject
    Tracing tracing;

    private final Clock clock = Clock.systemUTC();

    @Retry(maxRetries = Source.MAX_RETRIES, delay = 100, jitter = 50, delayUnit = ChronoUnit.MILLIS,
            retryOn = RetryableFailure.class, abortOn = FinalFailure.class)
    public Outcome attempt(Attempts attempts) {
        // A handler of the previous try may have left this thread interrupted; the next try must not inherit it.
        Thread.interrupted();
        Instant start = clock.instant();
        attempts.tryStarted(tracing.tryOf(attempts.event()));
        try {
            tries.run(List.of(attempts), start);
            attempts.tryEnded(null);
            return attempts.succeeded();
        } catch (Throwable thrown) {
            // Errors too (a handler's AssertionError, NoClassDefFoundError): unrecorded, they would loop forever.
            Throwable e = thrown instanceof TryFailed && thrown.getCause() != null ? thrown.getCause() : thrown;
            // Its duration from the try's start to the failure's time, both read already: after the rollback, which
            // a failed try's outcome includes.
            Failure failure = classifier.classify(e).ofTryStartedAt(start);
            attempts.failed(failure);
            attempts.tryEnded(failure);
            if (attempts.mayRetry()) {
                throw new RetryableFailure(failure, e);
            }
            throw new FinalFailure(failure, e);
        }
    }
}
