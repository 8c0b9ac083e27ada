package dev.hookstile.ingest.boundary;

import dev.hookstile.ingest.control.BodyBudget;
import dev.hookstile.ingest.control.RequestBody;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.util.logging.Logger;

/**
 * How large a webhook body may be, how long it may take to arrive, and how many bytes all bodies being received
 * may hold together: read in one place by both readers of a body, the web module's {@code BodyBuffer} and
 * {@link Ingest}'s read. Created as the application starts and destroyed as it stops, it also ends the blocking
 * reads' watchdog thread ({@link RequestBody#stopWatchdogs}) with the deployment, whoever read a body.
 */
@ApplicationScoped
public class BodyLimits {

    private static final Logger LOG = Logger.getLogger(BodyLimits.class.getName());

    @Inject
    @ConfigProperty(name = "hookstile.ingest.max-body-bytes", defaultValue = "1048576")
    int maxBytes;

    @Inject
    @ConfigProperty(name = "hookstile.ingest.body-timeout-seconds", defaultValue = "10")
    int timeoutSeconds;

    /**
     * Sized for the launcher's default heap (320 MB, about 230 MB live under load): room for 32 bodies of the
     * largest size at once, or thousands of ordinary ones.
     */
    @Inject
    @ConfigProperty(name = "hookstile.ingest.buffer-budget-bytes", defaultValue = "33554432")
    long budgetBytes;

    private BodyBudget budget;

    /** Created at deployment, so that it is destroyed (and the watchdogs stopped) at undeployment. */
    void eager(@Observes @Initialized(ApplicationScoped.class) Object applicationStarted) {
        // Observing the event instantiates the bean.
    }

    @PreDestroy
    void stop() {
        RequestBody.stopWatchdogs();
    }

    @PostConstruct
    void init() {
        // A budget smaller than two copies of the largest body (the gathered bytes and the array ingest reads them
        // into) would refuse every body of that size for good, not only under load.
        long least = 2L * (maxBytes + 1);
        if (budgetBytes < least) {
            LOG.warning("hookstile.ingest.buffer-budget-bytes=" + budgetBytes + " is below twice"
                    + " hookstile.ingest.max-body-bytes; using " + least);
        }
        budget = new BodyBudget(Math.max(budgetBytes, least));
    }

    public int maxBytes() {
        return maxBytes;
    }

    public int timeoutSeconds() {
        return timeoutSeconds;
    }

    /** Every buffered request byte is taken from here first, and given back when its request ends. */
    public BodyBudget budget() {
        return budget;
    }
}
