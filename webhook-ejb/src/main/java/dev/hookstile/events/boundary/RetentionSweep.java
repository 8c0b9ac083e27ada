package dev.hookstile.events.boundary;

import dev.hookstile.events.control.ExpiredEvents;
import dev.hookstile.platform.boundary.LogFields;
import dev.hookstile.platform.boundary.SchemaMigration;
import dev.hookstile.source.boundary.Source;
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
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
    MetricRegistry metrics;

    @Resource
    TimerService timers;

    private final Map<String, Counter> deleted = new HashMap<>();

    @PostConstruct
    void schedule() {
        var metadata = Metadata.builder().withName("hookstile.events.deleted")
                .withDescription("Completed and ignored events deleted by the retention, by source").build();
        for (Source source : sources.all()) {
            deleted.put(source.name(), metrics.counter(metadata, new Tag("source", source.name())));
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
        ExpiredEvents.Deleted batch;
        do {
            batch = expired.deleteBatch(source.name(), cutoff, BATCH);
            total = total.plus(batch);
        } while (batch.total() == BATCH && Instant.now().isBefore(deadline));
        if (total.total() > 0) {
            deleted.get(source.name()).inc(total.total());
        }
        return total;
    }
}
