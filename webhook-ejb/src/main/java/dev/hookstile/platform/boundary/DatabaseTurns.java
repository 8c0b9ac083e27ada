package dev.hookstile.platform.boundary;

import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The database as a timer's turns use it: a turn begins only once the schema is migrated (before, its tables may not
 * exist) and works on one connection; a turn that fails is warned of at the first of a run of failures only, as a
 * database away for an hour would otherwise repeat the warning at every turn, and the next turn tries again.
 * Dependent: each timer keeps its own run of failures.
 */
@Dependent
public class DatabaseTurns {

    /** A turn's work on its connection. */
    @FunctionalInterface
    public interface Work {
        void on(Connection connection) throws SQLException;
    }

    @Inject
    SchemaMigration schema;

    @Inject
    @ContainerResources.Database
    DataSource dataSource;

    private boolean failing;

    public DatabaseTurns() {
    }

    /** For unit tests: the given database, for {@link #connection} and {@link #run}. */
    public DatabaseTurns(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Whether a turn may begin: the schema is migrated. */
    public boolean ready() {
        return schema.migrated();
    }

    /** A connection outside the turns (an operator's request). */
    public Connection connection() throws SQLException {
        return dataSource.getConnection();
    }

    /**
     * A turn's work on one connection: whether it succeeded. A failure is logged as {@code failure} at the first turn
     * of a run of failures.
     */
    public boolean run(Work work, Logger log, String failure) {
        try (Connection connection = dataSource.getConnection()) {
            work.on(connection);
            failing = false;
            return true;
        } catch (SQLException | RuntimeException e) {
            if (!failing) {
                log.log(Level.WARNING, failure, e);
            }
            failing = true;
            return false;
        }
    }

    /**
     * The work's statements in one transaction on the connection, committed together or rolled back together; the
     * connection's auto-commit as it was afterwards.
     */
    public static void inOneTransaction(Connection connection, Work work) throws SQLException {
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try {
            work.on(connection);
            connection.commit();
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(autoCommit);
        }
    }
}
