package dev.hookstile.outbox.boundary;

import dev.hookstile.api.Text;
import dev.hookstile.outbox.control.DestinationBreakers;
import dev.hookstile.outbox.control.HttpForwarding;
import dev.hookstile.outbox.control.OutboxEntries;
import dev.hookstile.outbox.control.OutboxStatements;
import dev.hookstile.platform.boundary.LogFields;
import dev.hookstile.platform.Redacted;
import dev.hookstile.platform.boundary.SchemaMigration;
import dev.hookstile.source.Destination;
import dev.hookstile.source.Source;
import dev.hookstile.source.boundary.Sources;
import dev.hookstile.trace.TraceSpan;
import dev.hookstile.trace.boundary.Tracing;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.Timeout;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.OptionalLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Sends what the outbox holds, every {@code hookstile.outbox.interval-ms}: takes the due entries for a lease (so
 * several instances never send one at the same moment, and an instance that dies mid-send lets it go), sends each
 * outside any transaction, then records delivered, a retry with back-off (2 s doubling to 10 minutes, or the
 * destination's {@code Retry-After} when longer), or dead; an entry no request can be made of (a header value the
 * HTTP client refuses, an empty signing key) is dead at once, and the rest of its batch goes on. At least once: a crash after the destination answered and
 * before the record sends again, with the same {@code Idempotency-Key}. A destination that keeps failing is left
 * alone for a while ({@link DestinationBreakers}), so it cannot hold the relay from the others; its breaker opening
 * and closing are told as {@link BreakerChange}s. Notifications to the operator's endpoint
 * ({@link ForwardingSchedule#scheduleNotification}) go the same way, under the same policy, with a breaker of their own.
 *
 * <p>Longer than 300 lines because lease, send, record and breaker bookkeeping are one loop whose behaviour after a
 * crash must read in one place.
 */
@Singleton
@Startup
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class OutboxRelay {

    static final int BATCH = 50;
    static final Duration MAX_BACKOFF = Duration.ofMinutes(10);
    private static final Logger LOG = Logger.getLogger(OutboxRelay.class.getName());

    @Inject
    Tracing tracing;

    @Inject
    @ConfigProperty(name = "hookstile.outbox.interval-ms", defaultValue = "1000")
    long intervalMillis;

    /**
     * How long a taken entry is left alone by every instance: longer than a batch takes to send (50 requests with
     * 10 s timeouts, most of them answered far sooner); after a crash mid-send the entry is sent again when it ends.
     */
    @Inject
    @ConfigProperty(name = "hookstile.outbox.lease-seconds", defaultValue = "60")
    long leaseSeconds;

    /** Attempts before an entry is dead: with the back-off, about two days of trying. */
    @Inject
    @ConfigProperty(name = "hookstile.outbox.max-attempts", defaultValue = "300")
    int maxAttempts;

    /** Transient failures in a row after which a destination is left alone for a while. */
    @Inject
    @ConfigProperty(name = "hookstile.outbox.breaker-failures", defaultValue = "5")
    int breakerFailures;

    @Inject
    @ConfigProperty(name = "hookstile.outbox.breaker-open-seconds", defaultValue = "30")
    long breakerOpenSeconds;

    /** Requests in flight at once to one destination that answers (one at a time to one that fails). */
    @Inject
    @ConfigProperty(name = "hookstile.outbox.concurrency", defaultValue = "8")
    int concurrency;

    /**
     * The Java priority the relay sends at, below the request threads' 5 like processing's: forwarding has the
     * outbox in front of it and catches up after a burst, where an ack is what a sender waits for. The HTTP client's
     * threads are started from the relay's and inherit it.
     */
    @Inject
    @ConfigProperty(name = "hookstile.outbox.thread-priority", defaultValue = "1")
    int threadPriority;

    private DestinationBreakers breakers;

    /** The HTTP client, this singleton's: closed with it, so none of its threads outlives the deployment. */
    private HttpForwarding forwarding;

    /** Where operators read the breakers, past this singleton's lock. */
    @Inject
    Breakers published;

    @Inject
    Sources sources;

    @Inject
    OutboxEntries entries;

    /** Where notifications go ({@link ForwardingSchedule#notifications}). */
    @Inject
    ForwardingSchedule outbox;

    /** Told when a breaker opens or closes: the notifications' business, on this thread (observers return at once). */
    @Inject
    Event<BreakerChange> breakerChanges;

    @Inject
    OutboxGauges gauges;

    @Inject
    SchemaMigration schema;

    @Resource
    TimerService timers;

    @PostConstruct
    void schedule() {
        forwarding = new HttpForwarding();
        breakers = new DestinationBreakers(Math.max(1, breakerFailures),
                Duration.ofSeconds(Math.max(0, breakerOpenSeconds)));
        published.use(breakers);
        // Always, not only with a configured destination: any handler may post effects.
        if (intervalMillis <= 0) {
            return;
        }
        timers.createIntervalTimer(intervalMillis, intervalMillis, new TimerConfig(null, false));
    }

    @PreDestroy
    void stop() {
        forwarding.close();
    }

    @Timeout
    void relay() {
        if (!schema.migrated()) {
            return;
        }
        // The timer's thread is the container's, shared with other timers: its priority is given back.
        Thread current = Thread.currentThread();
        int containerPriority = current.getPriority();
        current.setPriority(Math.max(Thread.MIN_PRIORITY, Math.min(Thread.MAX_PRIORITY, threadPriority)));
        try {
            OutboxEntries.Taken taken;
            do {
                Destination notifications = outbox.notifications();
                taken = entries.take(Instant.now(), Duration.ofSeconds(Math.max(1, leaseSeconds)), BATCH,
                        notifications == null ? null : notifications.url().toString(), paces());
                var delivered = new ArrayList<Long>(taken.due().size());
                byDestination(taken.due()).values().forEach(group -> sendAll(group, delivered));
                entries.delivered(delivered, Instant.now());
                // A full batch, even if a pause or a pace kept some of it back (now out of the walk), means more
                // may be due behind it: other destinations must not wait for the next turn.
            } while (taken.full());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "ForwardingSchedule relay failed; next try in " + intervalMillis + " ms", e);
        } finally {
            current.setPriority(containerPriority);
        }
    }

    private static Map<String, List<OutboxEntries.Due>> byDestination(List<OutboxEntries.Due> due) {
        var groups = new LinkedHashMap<String, List<OutboxEntries.Due>>();
        due.forEach(entry -> groups.computeIfAbsent(entry.destination(), d -> new ArrayList<>()).add(entry));
        return groups;
    }

    /**
     * One destination's due entries: the first alone; while the destination answers, the rest up to
     * {@code hookstile.outbox.concurrency} at a time; once it fails, one at a time until its breaker opens, so a
     * destination in trouble is never sent more than it can take.
     */
    private void sendAll(List<OutboxEntries.Due> due, List<Long> delivered) {
        int next = 0;
        while (next < due.size()) {
            boolean answering = next > 0 && !breakers.failing(due.get(0).destination());
            int width = answering ? Math.max(1, concurrencyOf(due.get(0))) : 1;
            List<OutboxEntries.Due> round = due.subList(next, Math.min(due.size(), next + width));
            next += round.size();
            var sent = new ArrayList<OutboxEntries.Due>(round.size());
            var results = new ArrayList<CompletableFuture<HttpForwarding.Result>>(round.size());
            for (OutboxEntries.Due entry : round) {
                CompletableFuture<HttpForwarding.Result> result;
                try {
                    result = start(entry);
                } catch (RuntimeException e) {
                    // One entry must never hold its batch: the rest would stay leased, and what was sent of it
                    // would go out again when the lease ends.
                    result = CompletableFuture.completedFuture(new HttpForwarding.Unsendable(
                            "could not be sent: " + e.getClass().getSimpleName()));
                    fields(entry).log(LOG, Level.WARNING, e, () -> "ForwardingSchedule: " + describe(entry)
                            + " could not be sent");
                }
                if (result != null) {
                    sent.add(entry);
                    results.add(result);
                }
            }
            for (int i = 0; i < sent.size(); i++) {
                record(sent.get(i), results.get(i).join(), delivered);
            }
        }
    }

    /** Each paced destination's rate, by {@code [source, destination]}: what the buckets grant from. */
    private Map<List<String>, Double> paces() {
        Map<List<String>, Double> paces = new HashMap<>();
        for (Source source : sources.all()) {
            Destination destination = source.destination();
            if (destination != null && destination.pace().limited()) {
                paces.put(List.of(source.name(), destination.url().toString()), destination.pace().perSecond());
            }
        }
        return paces;
    }

    /** A destination's own concurrency ({@code _DESTINATION_CONCURRENCY}), else the relay's. */
    private int concurrencyOf(OutboxEntries.Due entry) {
        if (entry.effect() == 0 && !OutboxStatements.NOTIFICATIONS.equals(entry.source())) {
            int own = sources.find(entry.source()).map(Source::destination)
                    .filter(d -> d.url().toString().equals(entry.destination()))
                    .map(d -> d.pace().concurrency()).orElse(0);
            if (own > 0) {
                return own;
            }
        }
        return concurrency;
    }

    /** The request under way, or {@code null} when none is sent (breaker open, destination configured away). */
    private CompletableFuture<HttpForwarding.Result> start(OutboxEntries.Due entry) {
        boolean notification = OutboxStatements.NOTIFICATIONS.equals(entry.source());
        Destination destination = entry.effect() > 0 ? null : notification ? notificationsTo(entry.destination())
                : sources.find(entry.source()).map(Source::destination)
                .filter(d -> d.url().toString().equals(entry.destination()))
                .orElse(null);
        if (entry.effect() == 0 && destination == null) {
            // Configured away since: leave it pending, visible, for when it comes back.
            return null;
        }
        Instant now = Instant.now();
        Instant open = breakers.openUntil(entry.destination(), now);
        if (open != null) {
            // An open breaker counts as a transient failure: no request, tried again once it may be closed.
            retryOrBury(entry, now, new HttpForwarding.Transient("circuit open: " + breakers.threshold()
                    + " failures in a row at this destination",
                    OptionalLong.of(Duration.between(now, open).toSeconds() + 1)));
            return null;
        }
        if (notification) {
            return forwarding.sendNotification(destination, entry, now);
        }
        TraceSpan span = tracing.forwarding(entry.traceParent(), entry.source(), entry.eventId(),
                entry.destination());
        CompletableFuture<HttpForwarding.Result> result = entry.effect() > 0
                ? forwarding.sendEffect(entry, span.traceParent())
                : forwarding.send(destination, entry, now, span.traceParent());
        return span.span() == null ? result : result.whenComplete((answer, thrown) -> {
            span.set("hookstile.attempt", entry.attempts() + 1L);
            String failure = thrown != null ? "could not be sent"
                    : answer instanceof HttpForwarding.Transient t ? t.reason()
                    : answer instanceof HttpForwarding.Permanent p ? p.reason()
                    : answer instanceof HttpForwarding.Unsendable u ? u.reason() : null;
            if (failure != null) {
                span.failed(failure);
            }
            span.end();
        });
    }

    /** The notifications' endpoint if it is still this URL. */
    private Destination notificationsTo(String url) {
        Destination endpoint = outbox.notifications();
        return endpoint != null && endpoint.url().toString().equals(url) ? endpoint : null;
    }

    private void record(OutboxEntries.Due entry, HttpForwarding.Result result, List<Long> delivered) {
        gauges.attempted(entry.source(), entry.effect() > 0, result instanceof HttpForwarding.Delivered
                ? OutboxGauges.Result.DELIVERED
                : result instanceof HttpForwarding.Transient && entry.attempts() + 1 < maxAttempts
                ? OutboxGauges.Result.FAILED : OutboxGauges.Result.DEAD);
        if (result instanceof HttpForwarding.Transient failure) {
            Instant now = Instant.now();
            boolean wasClosed = breakers.status(entry.destination(), now) == DestinationBreakers.Status.CLOSED;
            if (breakers.failed(entry.destination(), now)) {
                LogFields.of("destination", Redacted.endpoint(entry.destination())).and("breaker", "open")
                        .log(LOG, Level.WARNING, () -> "ForwardingSchedule: breaker of " + Redacted.endpoint(entry.destination())
                                + " opened: " + breakers.threshold() + " failures in a row ("
                                + Text.escaped(failure.reason()) + "); left alone for " + breakerOpenSeconds
                                + " s");
                if (wasClosed) {
                    breakerChanges.fire(new BreakerChange(entry.destination(), true, now));
                }
            }
            retryOrBury(entry, now, failure);
            return;
        }
        if (result instanceof HttpForwarding.Unsendable unsendable) {
            entries.dead(entry.id(), unsendable.reason());
            dead(entry, unsendable.reason());
            return;
        }
        if (breakers.answered(entry.destination())) {
            LogFields.of("destination", Redacted.endpoint(entry.destination())).and("breaker", "closed")
                    .log(LOG, Level.INFO, () -> "ForwardingSchedule: breaker of " + Redacted.endpoint(entry.destination())
                            + " closed: it answered again");
            breakerChanges.fire(new BreakerChange(entry.destination(), false, Instant.now()));
        }
        if (result instanceof HttpForwarding.Delivered) {
            delivered.add(entry.id());
        } else if (result instanceof HttpForwarding.Permanent permanent) {
            entries.dead(entry.id(), permanent.reason());
            dead(entry, permanent.reason());
        }
    }

    /** A line per entry given up on: a destination's event dead is a state change an operator must see. */
    private static void dead(OutboxEntries.Due entry, String reason) {
        fields(entry).log(LOG, Level.WARNING, () -> "ForwardingSchedule: " + describe(entry) + " is dead: "
                + Text.escaped(reason));
    }

    /** The entry's event, and its attempt at the destination (not the event's processing attempt). */
    private static LogFields fields(OutboxEntries.Due entry) {
        return LogFields.event(entry.source(), entry.eventId(), entry.attempts() + 1)
                .and("destination", Redacted.endpoint(entry.destination())).trace(entry.traceParent());
    }

    private static String describe(OutboxEntries.Due entry) {
        return (entry.effect() > 0 ? "effect " + entry.effect() + " of event " : "event ")
                + LogFields.name(entry.source(), entry.eventId()) + " to " + Redacted.endpoint(entry.destination())
                + " (attempt " + (entry.attempts() + 1) + ")";
    }

    private void retryOrBury(OutboxEntries.Due entry, Instant now, HttpForwarding.Transient failure) {
        int attempt = entry.attempts() + 1;
        if (attempt >= maxAttempts) {
            String reason = failure.reason() + " (attempt " + attempt + " of " + maxAttempts + ")";
            entries.dead(entry.id(), reason);
            dead(entry, reason);
        } else {
            entries.retryAt(entry.id(), now.plus(backoff(attempt, failure)), failure.reason());
        }
    }

    static Duration backoff(int attempt, HttpForwarding.Transient failure) {
        Duration exponential = Duration.ofSeconds(1L << Math.min(attempt, 20));
        Duration wait = exponential.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : exponential;
        if (failure.retryAfterSeconds().isPresent()) {
            Duration asked = Duration.ofSeconds(Math.min(failure.retryAfterSeconds().getAsLong(), 3600));
            return asked.compareTo(wait) > 0 ? asked : wait;
        }
        return wait;
    }
}
