package dev.hookstile.processing.control;

import dev.hookstile.api.WebhookEvent;
import dev.hookstile.dedup.entity.EventStatus;
import dev.hookstile.source.control.Source;
import dev.hookstile.source.control.Sources;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Clock;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One delivery of an event from the queue: its tries, then, if they failed, the decision the broker acts on. The
 * consumer's transaction holds only the message; each try commits on its own ({@link ProcessingTransaction}), and
 * exactly-once rests on the claim: a delivery that finds the event finished does nothing and consumes the message.
 */
@ApplicationScoped
public class EventProcessor {

    private static final Logger LOG = Logger.getLogger(EventProcessor.class.getName());

    @Inject
    EventProcessing processing;

    @Inject
    AttemptLog log;

    @Inject
    FailureClassifier classifier;

    @Inject
    Sources sources;

    /** The broker's redelivery limit, -1 for none (the consumer's activation config reads the same variable). */
    @Inject
    @ConfigProperty(name = "HOOKSTILE_PROCESSING_MAX_REDELIVERIES", defaultValue = "-1")
    int maxRedeliveries;

    /**
     * The Java priority of the threads that process events, below ingest's (5) by default. Acks are the latency a
     * sender waits for; processing has the queue in front of it and catches up. The JVM applies it only with
     * {@code -XX:ThreadPriorityPolicy=1} (the launcher's default): Linux then runs these threads at a higher nice
     * value, so under a burst the request threads get the CPU first.
     */
    @Inject
    @ConfigProperty(name = "hookstile.processing.thread-priority", defaultValue = "1")
    int threadPriority;

    private final Clock clock = Clock.systemUTC();

    /** @param deliveryCount the broker's delivery count of this message (1 for the first) */
    public Outcome process(WebhookEvent event, String headersJson, int deliveryCount) {
        Thread current = Thread.currentThread();
        int priority = Math.max(Thread.MIN_PRIORITY, Math.min(Thread.MAX_PRIORITY, threadPriority));
        if (current.getPriority() != priority) {
            current.setPriority(priority);
        }
        Optional<Source> source = sources.find(event.source());
        var attempts = new Attempts(event, headersJson,
                source.map(Source::maxAttempts).orElse(sources.defaultMaxAttempts()),
                source.map(Source::retries).orElse(sources.defaultRetries()));
        try {
            return processing.attempt(attempts);
        } catch (RuntimeException e) {
            // A handler may leave the thread interrupted; recording the failure on an interrupted thread could fail
            // (a pool wait, H2's file channel) and the failure would go uncounted.
            Thread.interrupted();
            if (attempts.failures().isEmpty()) {
                // Failed around our code (an interceptor): classify what we got.
                attempts.failed(classifier.classify(e));
            }
            boolean lastDelivery = maxRedeliveries >= 0 && deliveryCount > maxRedeliveries;
            Optional<EventStatus> recorded = log.recordFailure(attempts, lastDelivery, clock.instant());
            if (recorded.isEmpty()) {
                return Outcome.DUPLICATE;
            }
            Failure last = attempts.lastFailure();
            if (recorded.get() == EventStatus.DEAD) {
                LOG.log(Level.WARNING, () -> "Dead: " + event + " after " + attempts.failures().size()
                        + " failed tries in this delivery (" + last.kind().column() + "): " + last.summary());
                return Outcome.DEAD;
            }
            LOG.log(Level.INFO, () -> "Retrying later: " + event + " (" + last.kind().column() + "): "
                    + last.summary());
            return Outcome.RETRY;
        } finally {
            // An interrupt left set by a handler would escape the consumer and leave the message unacknowledged until
            // a restart.
            Thread.interrupted();
        }
    }
}
