package dev.hookstile.processing.boundary;

import dev.hookstile.metrics.boundary.Metrics;
import dev.hookstile.metrics.boundary.Family;
import dev.hookstile.metrics.boundary.Counter;
import dev.hookstile.platform.boundary.ContainerResources;
import dev.hookstile.processing.control.ConsumerActivity;
import dev.hookstile.queue.boundary.WaitingMessages;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.Timeout;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Finds a queue's consumer that stopped receiving while its queue holds messages, and gets it connected again.
 *
 * <p>A consumer of the ActiveMQ resource adapter can stop receiving without anything failing: once, after an external
 * broker was killed and restarted under load, the consumer reconnected, every delivery's commit failed for ten
 * seconds, and then nothing was delivered and nothing logged while 1,958 messages waited; a restart of Hookstile
 * processed them (docs/reliability.md). The broker holds what it has sent a consumer until that consumer's connection
 * closes, so only closing it frees them.
 *
 * <p>Stalled means: no message delivered on this instance for the stall window, and the queue's first message the same
 * at two looks in a row. The window outlasts the longest redelivery delay, so a consumer waiting out back-off (the
 * database down, a failing handler) is not stalled. Then the consumer's connection is reported failed to the
 * resource adapter ({@link ConsumerActivity#reconnect}), which closes it (the broker gives its messages to the next
 * consumer) and connects again, once per window while the stall lasts; before the first, the threads of the instance
 * go to the log, the evidence for the cause. Still stalled after
 * {@value #RECONNECTS_BEFORE_DOWN} of those, liveness goes DOWN, so that an orchestrator restarts the instance.
 */
@Singleton
@Startup
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class StalledConsumers {

    private static final Logger LOG = Logger.getLogger(StalledConsumers.class.getName());
    static final int RECONNECTS_BEFORE_DOWN = 3;
    /** The queues Hookstile's consumers take events from (the dead-letter consumer's selector makes it no judge). */
    private static final List<String> QUEUES = Stream.concat(Stream.of(ContainerResources.QUEUE_NAME),
            ContainerResources.ORDERED_QUEUE_NAMES.stream()).toList();

    /** A queue found with messages while its consumer received none: since when, and what was done. */
    private record Suspect(String first, long sinceNanos, int reconnects, long lastReconnectNanos) {
    }

    @Inject
    ConsumerActivity activity;

    @Inject
    WaitingMessages waiting;

    @Inject
    @ConfigProperty(name = "hookstile.processing.stall-seconds")
    Optional<Integer> stallSeconds;

    @Inject
    @ConfigProperty(name = "HOOKSTILE_PROCESSING_MAX_REDELIVERY_DELAY_MS", defaultValue = "60000")
    long longestRedeliveryDelayMs;

    @Inject
    Metrics metrics;

    @Resource
    TimerService timers;

    private final Map<String, Suspect> suspects = new ConcurrentHashMap<>();
    private final Map<String, Counter> reconnected = new ConcurrentHashMap<>();
    private final AtomicLong reconnects = new AtomicLong();
    long windowNanos;

    @PostConstruct
    void schedule() {
        // Tagged by queue: a fixed set, present at 0 before the first stall, for alerts.
        Family<Counter> family = metrics.counter("hookstile_consumers_reconnected_total",
                "Queue consumers reconnected because they received nothing while their queue held messages", "queue");
        for (String queue : QUEUES) {
            reconnected.put(queue, family.labels(queue));
        }
        Duration window = stallSeconds.map(Duration::ofSeconds)
                .orElse(Duration.ofMillis(2 * longestRedeliveryDelayMs));
        if (window.isZero() || window.isNegative()) {
            LOG.info("Stalled consumers are not looked for (hookstile.processing.stall-seconds=0)");
            return;
        }
        windowNanos = window.toNanos();
        long lookMillis = Math.max(1_000, window.toMillis() / 4);
        timers.createIntervalTimer(lookMillis, lookMillis, new TimerConfig(null, false));
    }

    @Timeout
    void look() {
        for (String queue : QUEUES) {
            try {
                look(queue, System.nanoTime());
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "Could not look at the consumer of " + queue, e);
            }
        }
    }

    /** Queues whose consumer is still stalled after every reconnect: what liveness reports. */
    public List<String> stalled() {
        return stalled(System.nanoTime());
    }

    List<String> stalled(long now) {
        List<String> stalled = new ArrayList<>();
        suspects.forEach((queue, suspect) -> {
            if (suspect.reconnects() >= RECONNECTS_BEFORE_DOWN
                    && now - activity.lastDeliveryNanos(queue) >= windowNanos) {
                stalled.add(queue);
            }
        });
        return stalled;
    }

    /** How many times a stalled consumer was reconnected since the start. */
    public long reconnects() {
        return reconnects.get();
    }

    void look(String queue, long now) {
        if (now - activity.lastDeliveryNanos(queue) < windowNanos) {
            suspects.remove(queue);
            return;
        }
        Optional<String> first;
        try {
            first = waiting.first(queue);
        } catch (Exception brokerAway) {
            // Nothing to receive from a broker that is not there; the resource adapter reconnects on its own.
            LOG.log(Level.FINE, "Could not browse " + queue, brokerAway);
            suspects.remove(queue);
            return;
        }
        Suspect suspect = suspects.get(queue);
        if (first.isEmpty()) {
            suspects.remove(queue);
        } else if (suspect == null || !suspect.first().equals(first.get())) {
            suspects.put(queue, new Suspect(first.get(), now, 0, 0));
        } else if (suspect.reconnects() == 0 || now - suspect.lastReconnectNanos() >= windowNanos) {
            long idleSeconds = TimeUnit.NANOSECONDS.toSeconds(now - activity.lastDeliveryNanos(queue));
            if (suspect.reconnects() == 0) {
                // Why a consumer stalls is not known yet: what every thread is doing is the evidence, once a stall.
                LOG.warning(() -> "Threads of this instance while the consumer of " + queue + " is stalled:\n"
                        + threads());
            }
            boolean reported = activity.reconnect(queue, "stalled: nothing received for " + idleSeconds
                    + " s while the queue holds messages");
            reconnects.incrementAndGet();
            Counter counter = reconnected.get(queue);
            if (counter != null) {
                counter.inc();
            }
            LOG.warning(() -> "The consumer of " + queue + " received nothing for " + idleSeconds + " s while the"
                    + " queue holds messages; " + (reported ? "reported its connection failed, so that the resource"
                    + " adapter connects it again" : "it has no connection to reconnect") + " (reconnect "
                    + (suspect.reconnects() + 1) + " of this stall)");
            suspects.put(queue, new Suspect(suspect.first(), suspect.sinceNanos(), suspect.reconnects() + 1, now));
        }
    }

    private static String threads() {
        StringBuilder dump = new StringBuilder();
        for (ThreadInfo thread : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
            dump.append('"').append(thread.getThreadName()).append("\" ").append(thread.getThreadState());
            if (thread.getLockName() != null) {
                dump.append(" on ").append(thread.getLockName());
            }
            if (thread.getLockOwnerName() != null) {
                dump.append(" owned by \"").append(thread.getLockOwnerName()).append('"');
            }
            dump.append('\n');
            for (StackTraceElement frame : thread.getStackTrace()) {
                dump.append("\tat ").append(frame).append('\n');
            }
            dump.append('\n');
        }
        return dump.toString();
    }
}
