package dev.hookstile.bench.plain;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * One polling loop: claims up to a batch of pending events, handles them and marks them completed in one transaction.
 * {@code SKIP LOCKED} lets the workers (and other instances) share the table without waiting on each other's rows. A
 * failing event rolls its whole batch back, to be tried again after a pause: the simplest design has no dead letters.
 */
class Worker implements Runnable {

    private static final Logger LOG = Logger.getLogger(Worker.class.getName());
    private static final int BATCH = 100;
    private static final long BACK_OFF_MILLIS = 1_000;
    private static final String CLAIM = "SELECT id, source, event_id, event_type, payload FROM plain_event"
            + " WHERE status = 'pending' ORDER BY id LIMIT " + BATCH + " FOR UPDATE SKIP LOCKED";
    private static final String COMPLETE =
            "UPDATE plain_event SET status = 'completed', processed_at = now() WHERE id = ANY (?)";

    private final DataSource dataSource;
    private final HandledRow handler;
    private final long pollMillis;
    private final BooleanSupplier running;

    Worker(DataSource dataSource, HandledRow handler, long pollMillis, BooleanSupplier running) {
        this.dataSource = dataSource;
        this.handler = handler;
        this.pollMillis = pollMillis;
        this.running = running;
    }

    @Override
    public void run() {
        while (running.getAsBoolean()) {
            try {
                // A full batch means more are probably waiting: poll again at once.
                if (processBatch() < BATCH) {
                    Thread.sleep(pollMillis);
                }
            } catch (InterruptedException e) {
                return; // only the shutdown interrupts
            } catch (SQLException | RuntimeException e) {
                if (!running.getAsBoolean()) {
                    return;
                }
                // The message only: the events' ids and payloads are the sender's data.
                LOG.log(Level.WARNING, "Batch rolled back, polling again in 1 s: {0}", e.toString());
                try {
                    Thread.sleep(BACK_OFF_MILLIS);
                } catch (InterruptedException stop) {
                    return;
                }
            }
        }
    }

    private int processBatch() throws SQLException {
        // The pool restores autocommit when the connection goes back.
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                List<Long> done = new ArrayList<>();
                try (var claim = connection.prepareStatement(CLAIM); var rows = claim.executeQuery()) {
                    while (rows.next()) {
                        handler.handle(connection, rows.getString(2), rows.getString(3), rows.getString(4),
                                rows.getBytes(5));
                        done.add(rows.getLong(1));
                    }
                }
                if (!done.isEmpty()) {
                    try (var complete = connection.prepareStatement(COMPLETE)) {
                        complete.setArray(1, connection.createArrayOf("bigint", done.toArray()));
                        complete.executeUpdate();
                    }
                }
                connection.commit();
                return done.size();
            } catch (SQLException | RuntimeException e) {
                try {
                    connection.rollback();
                } catch (SQLException rollback) {
                    e.addSuppressed(rollback);
                }
                throw e;
            }
        }
    }
}
