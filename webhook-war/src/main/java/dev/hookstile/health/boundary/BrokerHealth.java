package dev.hookstile.health.boundary;

import dev.hookstile.health.control.RecentAnswer;
import dev.hookstile.platform.boundary.ContainerResources;
import dev.hookstile.queue.boundary.EventQueue;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Ready means events can be accepted, and that needs a broker that answers: a real connection, at most once a second
 * ({@link RecentAnswer}: the endpoint is public). The answer names only the kind of failure (it is served without
 * credentials, and a client's message can name hosts); the full message goes to the log, once per outage.
 */
@Readiness
@ApplicationScoped
public class BrokerHealth implements HealthCheck {

    private static final Logger LOG = Logger.getLogger(BrokerHealth.class.getName());

    @Inject
    EventQueue queue;

    private volatile boolean wasUp = true;

    private RecentAnswer answers = new RecentAnswer(this::ask, System::nanoTime);

    /** At most one round trip per second, however often readiness is asked ({@link RecentAnswer}). */
    @Override
    public HealthCheckResponse call() {
        return answers.get();
    }

    /** For tests: the clock the answer's age is measured by. */
    void clock(LongSupplier nanos) {
        answers = new RecentAnswer(this::ask, nanos);
    }

    private HealthCheckResponse ask() {
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
