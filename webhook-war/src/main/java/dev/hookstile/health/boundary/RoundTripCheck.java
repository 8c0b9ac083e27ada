package dev.hookstile.health.boundary;

import dev.hookstile.health.control.RecentAnswer;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;

import java.util.function.LongSupplier;

/**
 * A readiness check that costs a round trip to what it checks (the database, the broker): asked at most once a
 * second however often readiness is, the answer reused in between ({@link RecentAnswer}: the endpoint is public).
 */
abstract class RoundTripCheck implements HealthCheck {

    private RecentAnswer answers = new RecentAnswer(this::ask, System::nanoTime);

    @Override
    public HealthCheckResponse call() {
        return answers.get();
    }

    /** For tests: the clock the answer's age is measured by. */
    void clock(LongSupplier nanos) {
        answers = new RecentAnswer(this::ask, nanos);
    }

    /** The round trip itself, and the answer it gives. */
    abstract HealthCheckResponse ask();
}
