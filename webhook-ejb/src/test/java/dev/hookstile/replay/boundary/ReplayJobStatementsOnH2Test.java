package dev.hookstile.replay.boundary;

import dev.hookstile.platform.boundary.SchemaMigration;
import dev.hookstile.replay.entity.ReplayJob;
import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A bulk replay job's own statements on the embedded database (H2 in PostgreSQL mode, after every migration): one
 * job runs at a time per database, a job belongs to the instance whose heartbeat it carries, and only a silent one
 * is interrupted.
 */
class ReplayJobStatementsOnH2Test {

    private static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");

    private Connection connection;

    @BeforeEach
    void migrate() throws SQLException {
        var h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:jobs-" + UUID.randomUUID()
                + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;DB_CLOSE_DELAY=-1");
        Flyway.configure().dataSource(h2).locations("classpath:db/migration").table("hookstile_schema_history")
                .placeholders(SchemaMigration.placeholders(false)).load().migrate();
        connection = h2.getConnection();
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
    }

    private int run(String query, Object... parameters) throws SQLException {
        return NamedQueries.update(connection, NamedQueries.of(ReplayJob.class, query), parameters);
    }

    private int create(String id, Instant at) throws SQLException {
        return run(ReplayJob.CREATE, id, "key-" + id, "{\"status\":\"dead\"}", Timestamp.from(at));
    }

    private String status(String id) throws SQLException {
        try (var select = connection.prepareStatement("SELECT status FROM replay_job WHERE id = ?")) {
            select.setString(1, id);
            try (ResultSet row = select.executeQuery()) {
                row.next();
                return row.getString(1);
            }
        }
    }

    private int interruptSilentFor(Duration silence) throws SQLException {
        return run(ReplayJob.INTERRUPT, Timestamp.from(NOW), Timestamp.from(NOW.minus(silence)));
    }

    @Test
    void aSecondJobIsNotCreatedWhileOneRunsAndIsOnceItFinished() throws SQLException {
        assertEquals(1, create("a", NOW));

        assertEquals(0, create("b", NOW), "one job runs at a time per database");

        assertEquals(1, run(ReplayJob.FINISH, "completed", 10, 10, Timestamp.from(NOW), null, "a"));
        assertEquals(1, create("b", NOW), "the finished job freed the slot");
    }

    @Test
    void aCancelledJobFreesTheSlotAndItsProgressIsNoLongerWritten() throws SQLException {
        create("a", NOW);

        assertEquals(1, run(ReplayJob.CANCEL, Timestamp.from(NOW), "a"));

        assertEquals(0, run(ReplayJob.PROGRESS, 200, 150, Timestamp.from(NOW), "a"),
                "the job learns that it was cancelled from its next progress");
        assertEquals(0, run(ReplayJob.HEARTBEAT, Timestamp.from(NOW), "a"));
        assertEquals("cancelled", status("a"));
        assertEquals(1, create("b", NOW));
    }

    @Test
    void aJobWhoseInstanceBeatsIsNotInterruptedByAnotherInstancesStart() throws SQLException {
        create("a", NOW.minusSeconds(600));
        assertEquals(1, run(ReplayJob.HEARTBEAT, Timestamp.from(NOW.minusSeconds(5)), "a"));

        assertEquals(0, interruptSilentFor(ReplayJobs.ABANDONED), "a restart elsewhere leaves a live job alone");

        assertEquals("running", status("a"));
        assertEquals(1, run(ReplayJob.PROGRESS, 400, 400, Timestamp.from(NOW), "a"), "its counts are saved");
        assertEquals(1, run(ReplayJob.CANCEL, Timestamp.from(NOW), "a"), "and it can be cancelled");
    }

    @Test
    void aJobWhoseHeartbeatStoppedIsInterruptedAndFreesTheSlot() throws SQLException {
        create("a", NOW.minus(ReplayJobs.ABANDONED).minusSeconds(1));

        assertEquals(1, interruptSilentFor(ReplayJobs.ABANDONED));

        assertEquals("interrupted", status("a"));
        assertEquals(1, create("b", NOW));
    }
}
