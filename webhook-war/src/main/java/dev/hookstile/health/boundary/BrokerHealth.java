package dev.hookstile.health.boundary;

import dev.hookstile.ingest.control.EventQueue;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Ready means events can be accepted, and that needs a broker that answers: a real connection, each time. */
@Readiness
@ApplicationScoped
public class BrokerHealth implements HealthCheck {

    @Inject
    EventQueue queue;

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("broker").withData("queue", EventQueue.PHYSICAL_NAME);
        try {
            queue.ping();
            return response.up().build();
        } catch (Exception e) {
            return response.down().withData("error", String.valueOf(e.getMessage())).build();
        }
    }
}
