package dev.hookstile.health.boundary;

import dev.hookstile.platform.boundary.ContainerResources;
import dev.hookstile.queue.boundary.EventQueue;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Ready means events can be accepted, and that needs a broker that answers: a real connection, at most once a second
 * ({@link RoundTripCheck}: the endpoint is public). The answer names only the kind of failure (it is served without
 * credentials, and a client's message can name hosts); the full message goes to the log, once per outage.
 */
@Readiness
@ApplicationScoped
public class BrokerHealth extends RoundTripCheck {

    private static final Logger LOG = Logger.getLogger(BrokerHealth.class.getName());

    @Inject
    EventQueue queue;

    private volatile boolean wasUp = true;

    @Override
    HealthCheckResponse ask() {
        var response = HealthCheckResponse.named("broker").withData("queue", ContainerResources.QUEUE_NAME);
        try {
            queue.ping();
            wasUp = true;
            return response.up().build();
        } catch (Exception e) {
            if (wasUp) {
                LOG.log(Level.WARNING, "Broker health check failed", e);
            }
            wasUp = false;
            return response.down().withData("error", e.getClass().getSimpleName()).build();
        }
    }
}
