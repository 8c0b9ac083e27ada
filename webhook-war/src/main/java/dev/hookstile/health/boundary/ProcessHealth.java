package dev.hookstile.health.boundary;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/**
 * Liveness: the application is deployed and can still allocate. Dependencies are deliberately not part of it: a
 * database or broker outage must not get the instance restarted, which would not fix them.
 */
@Liveness
@ApplicationScoped
public class ProcessHealth implements HealthCheck {

    /** Below this much free heap after a collection would be due, the instance is better restarted. */
    private static final double MIN_FREE_HEAP = 0.02;

    @Override
    public HealthCheckResponse call() {
        Runtime runtime = Runtime.getRuntime();
        long used = runtime.totalMemory() - runtime.freeMemory();
        double free = 1.0 - (double) used / runtime.maxMemory();
        return HealthCheckResponse.named("process")
                .withData("heapUsedBytes", used)
                .withData("heapMaxBytes", runtime.maxMemory())
                .status(free >= MIN_FREE_HEAP)
                .build();
    }
}
