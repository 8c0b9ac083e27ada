package dev.hookstile.processing.control;

import dev.hookstile.api.WebhookEvent;
import dev.hookstile.platform.StatementFailure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;

/**
 * The last processed event of each order key, kept in the try's transaction: an event acknowledged before it is
 * {@linkplain WebhookEvent#olderThanLastProcessed() older}. The order itself comes from the ordered queues (one
 * session each, one message group each); the row lock here only makes two tries of one key, should they ever meet
 * (an operator's replay racing the queue), wait for each other.
 */
@ApplicationScoped
class KeyOrder {

    @Inject
    EntityManager em;

    /** @return the event, told whether it is older than the last processed of its key; records it if not */
    WebhookEvent processing(WebhookEvent event, Instant now) {
        if (event.orderKey() == null) {
            return event;
        }
        // The try's connection, owned by the persistence context: never closed here.
        Connection connection = em.unwrap(Connection.class);
        Timestamp receivedAt = Timestamp.from(event.receivedAt());
        Timestamp at = Timestamp.from(now);
        try {
            try (PreparedStatement first = connection.prepareStatement(EventOrderStatements.FIRST)) {
                first.setString(1, event.source());
                first.setString(2, event.orderKey());
                first.setTimestamp(3, receivedAt);
                first.setString(4, event.eventId());
                first.setTimestamp(5, at);
                if (first.executeUpdate() == 1) {
                    return event;
                }
            }
            Instant last;
            try (PreparedStatement query = connection.prepareStatement(EventOrderStatements.LAST)) {
                query.setString(1, event.source());
                query.setString(2, event.orderKey());
                try (ResultSet row = query.executeQuery()) {
                    last = row.next() ? row.getTimestamp(1).toInstant() : null;
                }
            }
            boolean older = last != null && event.receivedAt().isBefore(last);
            if (!older) {
                try (PreparedStatement newer = connection.prepareStatement(EventOrderStatements.NEWER)) {
                    newer.setTimestamp(1, receivedAt);
                    newer.setString(2, event.eventId());
                    newer.setTimestamp(3, at);
                    newer.setString(4, event.source());
                    newer.setString(5, event.orderKey());
                    newer.executeUpdate();
                }
            }
            return event.withOlderThanLastProcessed(older);
        } catch (SQLException e) {
            throw new StatementFailure(e);
        }
    }
}
