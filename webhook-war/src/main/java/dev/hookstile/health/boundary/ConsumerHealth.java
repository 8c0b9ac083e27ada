package dev.hookstile.health.boundary;

import dev.hookstile.processing.boundary.StalledConsumers;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

import java.util.List;

/**
 * Liveness: no queue consumer of this instance stays stalled. A consumer that receives nothing while its queue holds
 * messages is reconnected first ({@link StalledConsumers}); one that still receives nothing after that is a fault of
 * this instance that a restart clears (the broker then gives its messages to the next consumer), unlike a database
 * or broker outage, which stays out of liveness.
 */
@Liveness
@ApplicationScoped
public class ConsumerHealth implements HealthCheck {

    @Inject
    StalledConsumers consumers;

    @Override
    public HealthCheckResponse call() {
        List<String> stalled = consumers.stalled();
        var response = HealthCheckResponse.named("consumers")
                .withData("reconnectedWhenStalled", consumers.reconnects())
                .status(stalled.isEmpty());
        if (!stalled.isEmpty()) {
            response.withData("stalled", String.join(",", stalled));
        }
        return response.build();
    }
}
