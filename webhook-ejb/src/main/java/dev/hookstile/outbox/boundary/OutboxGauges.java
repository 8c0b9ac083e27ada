package dev.hookstile.outbox.boundary;

import dev.hookstile.metrics.boundary.Counter;
import dev.hookstile.metrics.boundary.Family;
import dev.hookstile.metrics.boundary.Gauge;
import dev.hookstile.metrics.boundary.Metrics;
import dev.hookstile.outbox.control.OutboxStatements;
import dev.hookstile.platform.boundary.ContainerResources;
import dev.hookstile.source.Destination;
import dev.hookstile.source.Source;
import dev.hookstile.source.boundary.Sources;
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

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The outbox's metrics by destination: entries pending and how long the oldest due one has waited (counted by a timer
 * every {@value #EVERY_SECONDS} s over the {@code (status, next_attempt_at)} index, never on a scrape), whether the
 * breaker is open on this instance, and every attempt by its result. A destination is named for the source whose it
 * is ({@code billing}); the effects that handlers of a source schedule are {@code billing:effect}; the operator
 * notifications' endpoint is {@value OutboxStatements#NOTIFICATIONS}.
 */
@Singleton
@Startup
// Bean-managed: a scrape or the relay counting an attempt never waits for the timer's query.
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class OutboxGauges {

    static final int EVERY_SECONDS = 10;
    /** What an attempt came to. */
    public enum Result {
        DELIVERED, FAILED, DEAD;

        final String tag = name().toLowerCase(Locale.ROOT);
    }

    private static final String PENDING = """
            SELECT source, effect > 0, COUNT(*), MIN(next_attempt_at) FROM outbox WHERE status = '%s'
            GROUP BY source, effect > 0""".formatted(OutboxStatements.PENDING);
    private static final Logger LOG = Logger.getLogger(OutboxGauges.class.getName());

    @Inject
    Metrics metrics;

    @Inject
    Sources sources;

    @Inject
    Breakers breakers;

    @Inject
    ForwardingSchedule outbox;

    @Inject
    @ContainerResources.Database
    DataSource dataSource;

    @Resource
    TimerService timers;

    private Family<Gauge> pending;
    private Family<Gauge> oldestDue;
    private Family<Gauge> breakerOpen;
    private Family<Gauge> paused;
    private Family<Counter> attempts;
    /**
     * The destinations whose gauges are in the scrape: the configured ones from the start, a source's effects once it
     * had any. Back to 0 when drained, rather than left at their last value.
     */
    private final Set<String> shown = ConcurrentHashMap.newKeySet();

    @PostConstruct
    void schedule() {
        register();
        long every = EVERY_SECONDS * 1_000L;
        timers.createIntervalTimer(1_000, every, new TimerConfig(null, false));
    }

    /** The families, each configured destination's series at 0. */
    void register() {
        pending = metrics.gauge("hookstile_outbox_pending", "ForwardingSchedule entries not yet delivered, by destination",
                "destination");
        oldestDue = metrics.gauge("hookstile_outbox_oldest_due_age_seconds",
                "How long the oldest due outbox entry has been due, by destination; 0 when none is", "destination");
        breakerOpen = metrics.gauge("hookstile_outbox_breaker_open",
                "1 while this instance leaves a destination alone after failures in a row", "destination");
        paused = metrics.gauge("hookstile_outbox_destination_paused",
                "1 while an operator has paused a destination (its forwardings held, counted as pending)", "destination");
        attempts = metrics.counter("hookstile_outbox_attempts_total",
                "Requests to destinations, by result (failed: to be tried again)", "destination", "result");
        for (Source source : sources.all()) {
            if (source.destination() != null) {
                shown.add(source.name());
                pending.labels(source.name());
                oldestDue.labels(source.name());
                breakerOpen.labels(source.name());
                paused.labels(source.name());
                for (Result result : Result.values()) {
                    attempts.labels(source.name(), result.tag);
                }
            }
        }
    }

    /** The destination an entry goes to, as tagged. */
    static String destinationOf(String source, boolean effect) {
        return effect ? source + ":effect" : source;
    }

    /** An attempt to deliver an entry came to this. */
    public void attempted(String source, boolean effect, Result result) {
        attempts.labels(destinationOf(source, effect), result.tag).inc();
    }

    @Timeout
    void refresh() {
        for (Source source : sources.all()) {
            if (source.destination() != null) {
                breakerOpen.labels(source.name()).set(
                        breakers.of(source.destination().url().toString()) == Breakers.State.OPEN ? 1 : 0);
            }
        }
        Destination notifications = outbox.notifications();
        if (notifications != null) {
            shown.add(OutboxStatements.NOTIFICATIONS);
            breakerOpen.labels(OutboxStatements.NOTIFICATIONS).set(
                    breakers.of(notifications.url().toString()) == Breakers.State.OPEN ? 1 : 0);
        }
        Map<String, long[]> found = new HashMap<>();
        Set<String> pausedNow = new HashSet<>();
        Instant now = Instant.now();
        try (Connection connection = dataSource.getConnection();
             PreparedStatement query = connection.prepareStatement(PENDING);
             PreparedStatement pauses = connection.prepareStatement(OutboxStatements.PAUSED)) {
            query.setQueryTimeout(5);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    Timestamp first = rows.getTimestamp(4);
                    long dueMillis = first == null ? 0 : Math.max(0, Duration.between(first.toInstant(), now).toMillis());
                    found.put(destinationOf(rows.getString(1), rows.getBoolean(2)),
                            new long[]{rows.getLong(3), dueMillis});
                }
            }
            try (ResultSet rows = pauses.executeQuery()) {
                while (rows.next()) {
                    pausedNow.add(rows.getString(1));
                }
            }
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.FINE, e, () -> "Could not count the outbox's pending entries");
            return;
        }
        var destinations = new ArrayList<String>();
        for (Source source : sources.all()) {
            if (source.destination() != null) {
                paused.labels(source.name()).set(pausedNow.contains(source.name()) ? 1 : 0);
            }
            destinations.add(destinationOf(source.name(), false));
            destinations.add(destinationOf(source.name(), true));
        }
        destinations.add(OutboxStatements.NOTIFICATIONS);
        for (String destination : destinations) {
            long[] counts = found.get(destination);
            if (counts != null) {
                shown.add(destination);
                pending.labels(destination).set(counts[0]);
                oldestDue.labels(destination).set(counts[1] / 1000.0);
            } else if (shown.contains(destination)) {
                pending.labels(destination).set(0);
                oldestDue.labels(destination).set(0);
            }
        }
    }
}
