package dev.hookstile.refusal.boundary;

import dev.hookstile.platform.boundary.DatabaseTurns;
import dev.hookstile.refusal.Refusal;
import dev.hookstile.refusal.control.RefusalStatements;
import dev.hookstile.refusal.control.Sampler;
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
import jakarta.json.Json;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.logging.Logger;

/**
 * Writes what {@link RefusalLog} kept in memory every {@link #FLUSH} (examples and counts, one transaction), and
 * keeps the examples within {@code hookstile.refusals.keep-days} (7) and {@code hookstile.refusals.max-kept} (10,000),
 * their bodies within {@code hookstile.refusals.max-kept-bodies} (1,000), the counts within the days. A write that fails (the database away) keeps the counts for the next one and the
 * examples while there is room in the log.
 */
@Singleton
@Startup
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class RefusalWriter {

    static final Duration FLUSH = Duration.ofSeconds(2);
    static final int MAX_HEADERS_JSON = 8000;
    private static final Duration TRIM_EVERY = Duration.ofMinutes(5);
    private static final Logger LOG = Logger.getLogger(RefusalWriter.class.getName());

    @Inject
    @ConfigProperty(name = "hookstile.refusals.keep-days", defaultValue = "7")
    int keepDays;

    @Inject
    @ConfigProperty(name = "hookstile.refusals.max-kept", defaultValue = "10000")
    int maxKept;

    /** At most 64 KiB each: the bodies kept take at most this many times that (64 MiB by default). */
    @Inject
    @ConfigProperty(name = "hookstile.refusals.max-kept-bodies", defaultValue = "1000")
    int maxKeptBodies;

    @Inject
    RefusalLog log;

    @Inject
    DatabaseTurns database;

    @Resource
    TimerService timers;

    private long lastTrim;

    @PostConstruct
    void schedule() {
        timers.createIntervalTimer(FLUSH.toMillis(), FLUSH.toMillis(), new TimerConfig(null, false));
    }

    /** A last write when the application stops. */
    @PreDestroy
    void stop() {
        flush();
    }

    @Timeout
    void flush() {
        if (!database.ready()) {
            return;
        }
        long now = System.currentTimeMillis();
        Sampler sampler = log.sampler();
        List<Sampler.Count> counts = sampler.drain(now);
        List<Refusal> examples = log.drainExamples();
        boolean written = database.run(connection -> {
            write(connection, examples, counts);
            if (now - lastTrim > TRIM_EVERY.toMillis()) {
                trim(connection, now);
                lastTrim = now;
            }
        }, LOG, "Could not write refused deliveries; kept in memory, next try in " + FLUSH.toSeconds() + " s");
        if (!written) {
            sampler.restore(counts);
            log.restoreExamples(examples);
        }
    }

    static void write(Connection connection, List<Refusal> examples, List<Sampler.Count> counts) throws SQLException {
        if (examples.isEmpty() && counts.isEmpty()) {
            return;
        }
        boolean postgres = connection.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT)
                .contains("postgres");
        DatabaseTurns.inOneTransaction(connection, transaction -> {
            try (PreparedStatement insert = transaction.prepareStatement(RefusalStatements.INSERT_EXAMPLE)) {
                for (Refusal example : examples) {
                    insert.setTimestamp(1, Timestamp.from(example.at()));
                    insert.setString(2, example.source());
                    insert.setString(3, example.reason());
                    insert.setInt(4, example.status());
                    insert.setString(5, example.detail());
                    insert.setString(6, example.remoteAddress());
                    insert.setString(7, headersJson(example));
                    insert.setLong(8, example.bodySize());
                    if (example.bodySha256() == null) {
                        insert.setNull(9, Types.VARCHAR);
                    } else {
                        insert.setString(9, example.bodySha256());
                    }
                    if (example.body() == null) {
                        insert.setNull(10, Types.BINARY);
                    } else {
                        insert.setBytes(10, example.body());
                    }
                    insert.addBatch();
                }
                if (!examples.isEmpty()) {
                    insert.executeBatch();
                }
            }
            String add = postgres ? RefusalStatements.ADD_COUNT_POSTGRES : RefusalStatements.ADD_COUNT_H2;
            try (PreparedStatement upsert = transaction.prepareStatement(add)) {
                for (Sampler.Count count : counts) {
                    upsert.setTimestamp(1, new Timestamp(count.minuteStart()));
                    upsert.setString(2, count.source());
                    upsert.setString(3, count.reason());
                    upsert.setLong(4, count.refused());
                    upsert.addBatch();
                }
                if (!counts.isEmpty()) {
                    upsert.executeBatch();
                }
            }
        });
    }

    void trim(Connection connection, long now) throws SQLException {
        var before = new Timestamp(now - Duration.ofDays(Math.max(1, keepDays)).toMillis());
        for (String sql : new String[] {RefusalStatements.DELETE_OLD_EXAMPLES, RefusalStatements.DELETE_OLD_COUNTS}) {
            try (PreparedStatement delete = connection.prepareStatement(sql)) {
                delete.setTimestamp(1, before);
                delete.executeUpdate();
            }
        }
        Long beyond = null;
        try (PreparedStatement first = connection.prepareStatement(RefusalStatements.FIRST_BEYOND)) {
            first.setInt(1, Math.max(1, maxKept));
            try (ResultSet row = first.executeQuery()) {
                if (row.next()) {
                    beyond = row.getLong(1);
                }
            }
        }
        if (beyond != null) {
            try (PreparedStatement delete = connection.prepareStatement(RefusalStatements.DELETE_UP_TO)) {
                delete.setLong(1, beyond);
                delete.executeUpdate();
            }
        }
        Long bodyBeyond = null;
        try (PreparedStatement first = connection.prepareStatement(RefusalStatements.FIRST_BODY_BEYOND)) {
            first.setInt(1, Math.max(0, maxKeptBodies));
            try (ResultSet row = first.executeQuery()) {
                if (row.next()) {
                    bodyBeyond = row.getLong(1);
                }
            }
        }
        if (bodyBeyond != null) {
            try (PreparedStatement drop = connection.prepareStatement(RefusalStatements.DROP_BODIES_UP_TO)) {
                drop.setLong(1, bodyBeyond);
                drop.executeUpdate();
            }
        }
    }

    /** The headers as a JSON object within the column's 8,000 characters: the last ones dropped if need be. */
    static String headersJson(Refusal example) {
        var names = new ArrayList<>(example.headers().keySet());
        while (true) {
            var json = Json.createObjectBuilder();
            names.forEach(name -> json.add(name, example.headers().get(name)));
            String text = json.build().toString();
            if (text.length() <= MAX_HEADERS_JSON || names.isEmpty()) {
                return text;
            }
            names.remove(names.size() - 1);
        }
    }
}
