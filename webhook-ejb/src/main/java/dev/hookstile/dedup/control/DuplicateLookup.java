package dev.hookstile.dedup.control;

import dev.hookstile.platform.control.SchemaMigration;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * The cheap "have we recorded this event already?" check at ingest, so a redelivery is answered {@code duplicate}
 * without queueing it again.
 *
 * <p>It is an optimisation only: the claim in the consumer is what guarantees at-most-once processing. So a database
 * that fails must not stop ingest: after a failure the lookup is skipped for a pause and every event is queued.
 */
@ApplicationScoped
public class DuplicateLookup {

    static final String SQL = "SELECT 1 FROM received_event WHERE source = ? AND event_id = ?";
    private static final long PAUSE_AFTER_FAILURE = TimeUnit.SECONDS.toNanos(5);
    private static final Logger LOG = Logger.getLogger(DuplicateLookup.class.getName());

    @Resource(lookup = SchemaMigration.DATA_SOURCE)
    DataSource dataSource;

    private volatile long skipUntil = System.nanoTime();

    /**
     * Created at deployment, not on first use: the first caller may be the health check, whose thread has no
     * naming context of this application, and resource injection would fail there.
     */
    void eager(@Observes @Initialized(ApplicationScoped.class) Object applicationStarted) {
        // Observing the event instantiates the bean.
    }

    /** {@code true} only when the database positively knows the event; {@code false} when unknown or unsure. */
    public boolean isRecorded(String source, String eventId) {
        if (System.nanoTime() - skipUntil < 0) {
            return false;
        }
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = connection.prepareStatement(SQL)) {
            statement.setQueryTimeout(1);
            statement.setString(1, source);
            statement.setString(2, eventId);
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next();
            }
        } catch (SQLException | RuntimeException e) {
            skipUntil = System.nanoTime() + PAUSE_AFTER_FAILURE;
            LOG.warning(() -> "Duplicate lookup failed; accepting events without it for 5 s (processing still "
                    + "deduplicates): " + e);
            return false;
        }
    }
}
