package dev.hookstile.outbox.boundary;

import dev.hookstile.api.WebhookEvent;
import dev.hookstile.dedup.boundary.EventClaim;
import dev.hookstile.outbox.entity.OutboxEntry;
import dev.hookstile.source.boundary.Destination;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;

/**
 * Schedules an event's forwarding in the caller's transaction (the try that processes it): the entry commits with
 * the claim and the handlers' work, or not at all, so it exists exactly when the event was processed.
 * {@link OutboxRelay} sends it afterwards.
 */
@ApplicationScoped
public class Outbox {

    @Inject
    EntityManager em;

    public void schedule(WebhookEvent event, Destination destination, Instant now) {
        try (PreparedStatement insert = em.unwrap(Connection.class).prepareStatement(OutboxEntry.SCHEDULE)) {
            Timestamp at = Timestamp.from(now);
            insert.setString(1, event.source());
            insert.setString(2, event.eventId());
            insert.setString(3, destination.url().toString());
            insert.setTimestamp(4, at);
            insert.setTimestamp(5, at);
            insert.executeUpdate();
        } catch (SQLException e) {
            throw new EventClaim.ClaimFailure(e);
        }
    }
}
