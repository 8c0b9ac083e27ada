package dev.hookstile.ingest.boundary;

import dev.hookstile.ingest.control.IngestBucketStatements;
import dev.hookstile.ingest.control.Tally;
import dev.hookstile.platform.boundary.DatabaseTurns;
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
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.net.InetAddress;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.logging.Logger;

/**
 * Writes what ingest counted in memory ({@link DeliveryMetrics}, {@link Tally}) into {@code ingest_bucket} every
 * {@code hookstile.overview.flush-seconds} (5), adding this instance's deltas to its rows (an upsert), and deletes
 * buckets older than {@link #KEEP}. Off the request path entirely: a delivery never waits for the database for this.
 * A write that fails (the database is away) keeps the deltas in memory for the next one, for up to {@link #KEEP}.
 */
@Singleton
@Startup
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class IngestBuckets {

    /** How long buckets are kept: the overview's longest window is a day. */
    public static final Duration KEEP = Duration.ofDays(2);
    private static final Duration DELETE_EVERY = Duration.ofMinutes(5);
    private static final Logger LOG = Logger.getLogger(IngestBuckets.class.getName());

    /** An hour in epoch milliseconds. */
    public static final long HOUR_MILLIS = Duration.ofHours(1).toMillis();

    @Inject
    @ConfigProperty(name = "hookstile.overview.flush-seconds", defaultValue = "5")
    long flushSeconds;

    @Inject
    DeliveryMetrics metrics;

    @Inject
    DatabaseTurns turns;

    @Resource
    TimerService timers;

    /**
     * This instance's rows: several instances on one database each add their own, and the overview sums them. The
     * host name, so that a restarted instance adds to its rows rather than starting new ones (the overview's reads
     * grow with the rows); instances sharing a host share rows, which the upsert adds to atomically.
     */
    private final String instance = instanceName();
    private long lastDelete;

    @PostConstruct
    void schedule() {
        long interval = Duration.ofSeconds(Math.max(1, flushSeconds)).toMillis();
        timers.createIntervalTimer(interval, interval, new TimerConfig(null, false));
    }

    @Timeout
    void flush() {
        if (!turns.ready()) {
            return;
        }
        long now = System.currentTimeMillis();
        List<Tally.Delta> deltas = metrics.tally().drain(now);
        boolean written = turns.run(connection -> {
            write(connection, deltas, instance);
            if (now - lastDelete > DELETE_EVERY.toMillis()) {
                for (String sql : new String[]{IngestBucketStatements.DELETE_OLD, IngestBucketStatements.DELETE_OLD_HOURS}) {
                    try (PreparedStatement delete = connection.prepareStatement(sql)) {
                        delete.setTimestamp(1, new Timestamp(now - KEEP.toMillis()));
                        delete.executeUpdate();
                    }
                }
                lastDelete = now;
            }
        }, LOG, "Could not write ingest counts for the overview; kept in memory, next try in " + flushSeconds + " s");
        if (!written) {
            metrics.tally().restore(deltas, now, KEEP.toMillis());
        }
    }

    /** A last write when the application stops, so a restart loses no count. */
    @PreDestroy
    void stop() {
        flush();
    }

    /**
     * Adds the deltas to this instance's ten-second buckets and to its hourly ones, in one transaction: the two
     * tables always agree.
     */
    static void write(Connection connection, List<Tally.Delta> deltas, String instance) throws SQLException {
        if (deltas.isEmpty()) {
            return;
        }
        boolean postgres = connection.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT)
                .contains("postgres");
        String upsert = postgres ? IngestBucketStatements.UPSERT_POSTGRES : IngestBucketStatements.UPSERT_H2;
        List<Tally.Delta> buckets = Tally.merged(deltas);
        List<Tally.Delta> hours = Tally.merged(deltas.stream().map(d -> new Tally.Delta(
                Math.floorDiv(d.bucketStart(), HOUR_MILLIS) * HOUR_MILLIS, d.source(), d.accepted(), d.duplicate(),
                d.rejected(), d.lastEventAt())).toList());
        DatabaseTurns.inOneTransaction(connection, c -> {
            upsert(c, upsert.formatted("ingest_bucket", "bucket_start"), buckets, instance);
            upsert(c, upsert.formatted("ingest_hour", "hour_start"), hours, instance);
        });
    }

    private static void upsert(Connection connection, String sql, List<Tally.Delta> deltas, String instance)
            throws SQLException {
        try (PreparedStatement upsert = connection.prepareStatement(sql)) {
            for (Tally.Delta delta : deltas) {
                upsert.setTimestamp(1, new Timestamp(delta.bucketStart()));
                upsert.setString(2, delta.source());
                upsert.setString(3, instance);
                upsert.setLong(4, delta.accepted());
                upsert.setLong(5, delta.duplicate());
                upsert.setLong(6, delta.rejected());
                upsert.setTimestamp(7, delta.lastEventAt() == 0 ? null : new Timestamp(delta.lastEventAt()));
                upsert.addBatch();
            }
            upsert.executeBatch();
        }
    }

    private static String instanceName() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            host = "instance";
        }
        return host.length() > 64 ? host.substring(0, 64) : host;
    }
}
