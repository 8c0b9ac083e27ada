package dev.hookstile.events.boundary;

import dev.hookstile.events.control.ExpiredEvents;
import dev.hookstile.events.entity.EventStatus;
import dev.hookstile.metrics.boundary.Counter;
import dev.hookstile.metrics.boundary.Family;
import dev.hookstile.metrics.boundary.Gauge;
import dev.hookstile.metrics.boundary.Metrics;
import dev.hookstile.platform.boundary.LogFields;
import dev.hookstile.platform.boundary.SchemaMigration;
import dev.hookstile.source.Source;
import dev.hookstile.source.boundary.Sources;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.Timeout;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * The retention: every {@code hookstile.retention.interval-seconds} it deletes each source's completed and ignored
 * events older than the source's retention ({@link Source#retention()}), with their history and old body
 * fingerprints, in batches of {@value #BATCH}. Dead events are kept until an operator replays them; retrying and
 * queued ones are never touched. Safe with several instances: they delete in small transactions, and an event
 * another instance deleted first is simply not deleted twice. Counted in {@code hookstile_events_deleted_total}.
 *
 * <p>Each deleted event leaves a tombstone, its key, which keeps a replay of it a duplicate; tombstones have a
 * retention of their own, {@code hookstile.retention.tombstone-days} ({@value #DEFAULT_TOMBSTONE_DAYS} by
 * default, counted from the event's receipt; 0 keeps them for ever), and go after it, oldest first.
 */
@Singleton
@Startup
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class RetentionSweep {

    static final int BATCH = 500;
    static final long DEFAULT_TOMBSTONE_DAYS = 400;
    /** One sweep gives way after this long, and goes on at the next interval: it must never hog the database. */
    private static final Duration BUDGET = Duration.ofSeconds(30);
    private static final Logger LOG = Logger.getLogger(RetentionSweep.class.getName());

    @Inject
    @ConfigProperty(name = "hookstile.retention.interval-seconds", defaultValue = "600")
    long intervalSeconds;

    /**
     * How long the key of a deleted event is kept: longer than anyone keeps a captured delivery to replay it. A
     * tombstone is a key and a time, some 200 bytes with its indexes, against the kilobytes of an event.
     */
    @Inject
    @ConfigProperty(name = "hookstile.retention.tombstone-days", defaultValue = "" + DEFAULT_TOMBSTONE_DAYS)
    long tombstoneDays;

    @Inject
    Sources sources;

    @Inject
    ExpiredEvents expired;

    @Inject
    SchemaMigration schema;

    @Inject
    Metrics metrics;

    @Resource
    TimerService timers;

    private Family<Counter> deleted;
    private Family<Gauge> lastRun;

    @PostConstruct
    void schedule() {
        deleted = metrics.counter("hookstile_retention_deleted_total",
                "Events deleted by the retention, by their status", "status");
        lastRun = metrics.gauge("hookstile_retention_last_run_timestamp_seconds",
                "When the retention last swept every source (Unix time; 0 before the first sweep), by the status it"
                        + " deletes", "status");
        for (EventStatus status : EventStatus.values()) {
            if (status.expirable()) {
                deleted.labels(status.column());
                lastRun.labels(status.column());
            }
        }
        if (tombstoneDays < 0) {
            throw new IllegalStateException("HOOKSTILE_RETENTION_TOMBSTONE_DAYS must not be negative (0 keeps every "
                    + "tombstone)");
        }
        for (Source source : sources.all()) {
            if (tombstoneDays > 0 && !source.retention().isZero()
                    && Duration.ofDays(tombstoneDays).compareTo(source.retention()) <= 0) {
                LOG.warning(() -> "HOOKSTILE_RETENTION_TOMBSTONE_DAYS=" + tombstoneDays + " is not longer than the "
                        + source.retention().toDays() + " days source '" + source.name() + "' keeps its events: "
                        + "its tombstones go with them, and a delivery captured before the retention is processed "
                        + "again after it");
            }
        }
        if (intervalSeconds <= 0) {
            LOG.info("Retention sweep off (hookstile.retention.interval-seconds=" + intervalSeconds + ")");
            return;
        }
        long interval = Duration.ofSeconds(intervalSeconds).toMillis();
        timers.createIntervalTimer(interval, interval, new TimerConfig(null, false));
    }

    @Timeout
    void sweep() {
        if (!schema.migrated()) {
            return;
        }
        Instant deadline = Instant.now().plus(BUDGET);
        var bySource = new LinkedHashMap<String, ExpiredEvents.Deleted>();
        int failed = 0;
        for (Source source : sources.all()) {
            try {
                ExpiredEvents.Deleted deleted = sweep(source, deadline);
                if (deleted.total() > 0) {
                    bySource.put(source.name(), deleted);
                }
            } catch (RuntimeException e) {
                // The database is away or busy: the next interval tries again.
                failed++;
                LOG.log(Level.WARNING, "Retention sweep of source " + source.name() + " failed; next try in "
                        + intervalSeconds + " s", e);
            }
        }
        long tombstones = 0;
        if (tombstoneDays > 0) {
            try {
                Instant cutoff = Instant.now().minus(Duration.ofDays(tombstoneDays));
                int batch;
                do {
                    batch = expired.deleteTombstones(cutoff, BATCH);
                    tombstones += batch;
                } while (batch == BATCH && Instant.now().isBefore(deadline));
            } catch (RuntimeException e) {
                failed++;
                LOG.log(Level.WARNING, "Retention sweep of tombstones failed; next try in " + intervalSeconds + " s", e);
            }
        }
        ran(bySource, tombstones, failed);
        if (failed == 0) {
            // A run that failed for a part is not a run: an alert on the time since the last one must see it.
            double at = System.currentTimeMillis() / 1000.0;
            for (EventStatus status : EventStatus.values()) {
                if (status.expirable()) {
                    lastRun.labels(status.column()).set(at);
                }
            }
        }
    }

    /** One line per run, with what it deleted by status: an operator sees it ran even when it found nothing. */
    private static void ran(Map<String, ExpiredEvents.Deleted> bySource, long tombstones, int failed) {
        ExpiredEvents.Deleted all = bySource.values().stream()
                .reduce(ExpiredEvents.Deleted.NONE, ExpiredEvents.Deleted::plus);
        LogFields.of("deletedCompleted", all.completed()).and("deletedIgnored", all.ignored())
                .and("deletedTombstones", tombstones).and("failed", failed)
                .log(LOG, failed > 0 ? Level.WARNING : Level.INFO, () -> "Retention run: deleted " + all.total()
                        + " events (" + all.completed() + " completed, " + all.ignored() + " ignored)"
                        + (bySource.isEmpty() ? "" : bySource.entrySet().stream()
                        .map(e -> e.getValue().total() + " of source " + e.getKey())
                        .collect(Collectors.joining(", ", ": ", "")))
                        + "; " + tombstones + " tombstones" + (failed == 0 ? "" : "; " + failed + " parts failed"));
    }

    private ExpiredEvents.Deleted sweep(Source source, Instant deadline) {
        Instant now = Instant.now();
        // A fingerprint serves its body's window only; past both that and the retention nothing reads it (a body
        // seen again after its window takes the row over).
        Duration keep = source.bodyDedupWindow().compareTo(source.retention()) > 0
                ? source.bodyDedupWindow() : source.retention();
        if (!keep.isZero()) {
            expired.deleteFingerprints(source.name(), now.minus(keep));
        }
        if (source.retention().isZero()) {
            return ExpiredEvents.Deleted.NONE;
        }
        Instant cutoff = now.minus(source.retention());
        ExpiredEvents.Deleted total = ExpiredEvents.Deleted.NONE;
        List<ExpiredEvents.Expired> batch;
        do {
            // Two transactions, the tombstones committed first: ExpiredEvents.leaveTombstones says why.
            batch = expired.leaveTombstones(source.name(), cutoff, BATCH);
            if (!batch.isEmpty()) {
                total = total.plus(expired.deleteTombstoned(source.name(), batch, cutoff));
            }
        } while (batch.size() == BATCH && Instant.now().isBefore(deadline));
        deleted.labels(EventStatus.COMPLETED.column()).add(total.completed());
        deleted.labels(EventStatus.IGNORED.column()).add(total.ignored());
        return total;
    }
}
