package dev.hookstile.bench;

import dev.hookstile.api.HandlesWebhooks;
import dev.hookstile.api.WebhookEvent;
import dev.hookstile.api.WebhookHandler;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;

import javax.sql.DataSource;
import java.sql.SQLException;

/**
 * The benchmark's handler: one row per event in {@code bench_handled} (created by bench/run), written through the
 * application's JTA data source, so it commits with the claim. A handler with no database work is not what users
 * run; the plain receiver's handler writes the same row in its worker's transaction.
 */
@ApplicationScoped
@HandlesWebhooks(sources = "bench")
public class HandledRow implements WebhookHandler {

    private static final String INSERT = "INSERT INTO bench_handled (source, event_id) VALUES (?, ?)";

    @Resource(lookup = "java:app/jdbc/hookstile")
    DataSource dataSource;

    @Override
    public void handle(WebhookEvent event) throws SQLException {
        try (var connection = dataSource.getConnection(); var insert = connection.prepareStatement(INSERT)) {
            insert.setString(1, event.source());
            insert.setString(2, event.eventId());
            insert.executeUpdate();
        }
    }
}
