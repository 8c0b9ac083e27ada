package dev.hookstile.processing.control;

import dev.hookstile.api.Text;
import dev.hookstile.api.WebhookEvent;
import dev.hookstile.events.entity.EventBody;
import dev.hookstile.events.entity.EventStatus;
import dev.hookstile.platform.boundary.LogFields;
import dev.hookstile.queue.boundary.EventMessage;
import dev.hookstile.source.Source;
import dev.hookstile.source.boundary.Sources;
import dev.hookstile.trace.boundary.Tracing;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One delivery of an event from the queue: its tries, then, if they failed, the decision the broker acts on. The
 * consumer's transaction holds only the message; each try commits on its own ({@link EventTry}), and
 * exactly-once rests on the claim: a delivery that finds the event finished does nothing and consumes the message.
 */
@ApplicationScoped
public class EventProcessor {

    private static final Logger LOG = Logger.getLogger(EventProcessor.class.getName());

    @Inject
    TryRetries retries;

    @Inject
    EventTry tries;

    @Inject
    AttemptLog log;

    @Inject
    FailureClassifier classifier;

    @Inject
    Sources sources;

    @Inject
    ProcessingMetrics processingMetrics;

    @Inject
    Tracing tracing;

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

    /**
     * The events of one message, in order, each with its own tries.
     *
     * @return whether the message must come back: an event is retrying (the events finished meanwhile are found
     *         finished by the redelivery and skipped)
     * @throws RuntimeException when a failure cannot even be recorded (the database is down): roll back, retry
     */
    public boolean process(List<EventMessage.Received> events) {
        lowerPriority();
        // A shared body is the same array for each of its events in the message: hashed once.
        var digests = new IdentityHashMap<byte[], String>(2);
        var group = new ArrayList<Attempts>(events.size());
        for (EventMessage.Received received : events) {
            group.add(attemptsOf(received, digests));
        }
        int deliveryCount = events.get(0).deliveryCount();
        if (group.size() > 1) {
            for (Attempts attempts : group) {
                attempts.tryStarted(tracing.tryOf(attempts.event()));
            }
            try {
                tries.run(group, clock.instant());
                group.forEach(attempts -> attempts.tryEnded(null));
                // Committed together: each counted by how its share of the try ended.
                Instant now = clock.instant();
                for (Attempts attempts : group) {
                    if (attempts.succeeded() != Outcome.OWNED_ELSEWHERE) {
                        processingMetrics.succeeded(attempts, attempts.succeeded(), now);
                    }
                }
                return false;
            } catch (TryFailed | RuntimeException e) {
                // Rolled back whole: every event gets a try of its own, from scratch, which finds the failing one
                // and records it.
                Failure failure = new Failure(Failure.Kind.TRANSIENT, "the try of " + events.size()
                        + " events together failed; each is tried alone", clock.instant());
                group.forEach(attempts -> attempts.tryEnded(failure));
                LOG.log(Level.FINE, e, () -> "A try of " + events.size() + " events together failed; trying each alone");
                group.clear();
                for (EventMessage.Received received : events) {
                    group.add(attemptsOf(received, digests));
                }
            } finally {
                // An interrupt left by a handler (or its deadline) must neither reach the next try nor escape the
                // consumer, which would leave the message unacknowledged until a restart.
                Thread.interrupted();
            }
        }
        boolean redeliver = false;
        for (Attempts attempts : group) {
            redeliver |= process(attempts, deliveryCount).redeliver();
        }
        return redeliver;
    }

    private void lowerPriority() {
        Thread current = Thread.currentThread();
        int priority = Math.max(Thread.MIN_PRIORITY, Math.min(Thread.MAX_PRIORITY, threadPriority));
        if (current.getPriority() != priority) {
            current.setPriority(priority);
        }
    }

    /** @param deliveryCount the broker's delivery count of this message (1 for the first) */
    private Outcome process(Attempts attempts, int deliveryCount) {
        try {
            Outcome outcome = retries.attempt(attempts);
            if (outcome == Outcome.COMPLETED || outcome == Outcome.IGNORED) {
                processingMetrics.succeeded(attempts, outcome, clock.instant());
            }
            return outcome;
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
                return Outcome.OWNED_ELSEWHERE;
            }
            processingMetrics.failed(attempts, recorded.get() == EventStatus.DEAD);
            Failure last = attempts.lastFailure();
            int tries = attempts.failures().size();
            LogFields fields = fields(attempts).and("failure", last.kind().column());
            if (recorded.get() == EventStatus.DEAD) {
                fields.log(LOG, Level.WARNING, () -> "Event " + name(attempts) + " dead after " + tries
                        + (tries == 1 ? " failed try" : " failed tries") + " in this delivery (" + last.kind().column()
                        + "): " + Text.escaped(last.summary()));
                return Outcome.DEAD;
            }
            // Below INFO: a failing handler or destination fails every event, each try; the event's history and the
            // metrics say it already.
            fields.log(LOG, Level.FINE, () -> "Event " + name(attempts) + " retrying later (" + last.kind().column()
                    + "): " + Text.escaped(last.summary()));
            return Outcome.RETRY;
        } finally {
            // An interrupt left set by a handler would escape the consumer and leave the message unacknowledged until
            // a restart.
            Thread.interrupted();
        }
    }

    /**
     * An event the broker gave up on: its last delivery could not even record a failure (the database was down)
     * and the broker moved the message to its dead letter queue. Recorded {@code dead}, replayable, with why; an
     * event another delivery finished meanwhile is left as it is.
     *
     * @param cause the broker's reason, if it gave one
     * @return {@link Outcome#DEAD}, or {@link Outcome#OWNED_ELSEWHERE} when the event was already finished
     * @throws RuntimeException when it cannot be recorded either (the database is still down): roll back, retry
     */
    public Outcome abandonedByBroker(EventMessage.Received received, String cause) {
        Attempts attempts = attemptsOf(received, new IdentityHashMap<>(1));
        attempts.failed(new Failure(Failure.Kind.PERMANENT, Failure.bounded(
                "the broker gave up redelivering it (HOOKSTILE_PROCESSING_MAX_REDELIVERIES=" + maxRedeliveries + ")"
                        + (cause == null || cause.isBlank() ? "" : ": " + cause)), clock.instant()));
        Optional<EventStatus> recorded = log.recordFailure(attempts, true, clock.instant());
        if (recorded.isEmpty()) {
            return Outcome.OWNED_ELSEWHERE;
        }
        processingMetrics.failed(attempts, true);
        fields(attempts).and("failure", Failure.Kind.PERMANENT.column()).log(LOG, Level.WARNING, () -> "Event "
                + name(attempts) + " dead: the broker gave up redelivering it (its dead letter queue)");
        return Outcome.DEAD;
    }

    /** The fields of a line about this event, at the attempt its failure was recorded as when known. */
    private static LogFields fields(Attempts attempts) {
        WebhookEvent event = attempts.event();
        return LogFields.event(event.source(), event.eventId(), attempt(attempts))
                .trace(attempts.trySpan() != null ? attempts.trySpan().traceParent() : event.traceParent());
    }

    private static int attempt(Attempts attempts) {
        return attempts.lastAttempt() > 0 ? attempts.lastAttempt() : attempts.event().attempt();
    }

    private static String name(Attempts attempts) {
        return LogFields.name(attempts.event().source(), attempts.event().eventId()) + " (attempt " + attempt(attempts)
                + ")";
    }

    private Attempts attemptsOf(EventMessage.Received received, Map<byte[], String> digests) {
        WebhookEvent event = received.event();
        Optional<Source> source = sources.find(event.source());
        String bodyDigest = received.sharedBody()
                ? digests.computeIfAbsent(event.payload(), EventBody::digestOf) : null;
        return new Attempts(event, received.headersJson(), bodyDigest,
                source.map(Source::maxAttempts).orElse(sources.defaultMaxAttempts()),
                source.map(Source::retries).orElse(sources.defaultRetries()),
                source.map(Source::bodyDedupWindow).orElse(Duration.ZERO),
                source.map(Source::destination).orElse(null),
                source.map(Source::backOffice).orElse(null));
    }
}
