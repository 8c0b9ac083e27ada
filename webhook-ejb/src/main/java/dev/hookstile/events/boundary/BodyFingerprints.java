package dev.hookstile.events.boundary;

import dev.hookstile.api.WebhookEvent;
import dev.hookstile.events.entity.BodyFingerprint;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Deduplication on the body, for sources whose event id the signature does not cover (GitHub's delivery id,
 * Shopify's webhook id, a configured id header, Twilio's idempotency token): a captured delivery sent again under a
 * fresh id carries the same signed body, and is recognised by its fingerprint within the source's window: the
 * SHA-256 of what its provider signs of the body ({@code Provider.bodyFingerprint}), the raw bytes for most.
 *
 * <p>Runs in the try's transaction, on the claim's connection. The fingerprint's primary key makes two concurrent
 * copies of one body wait for each other (PostgreSQL holds the second insert until the first commits), so exactly
 * one of them runs its handlers; a rolled-back try leaves no fingerprint.
 */
@ApplicationScoped
public class BodyFingerprints {

    @Inject
    EntityManager em;

    /**
     * The event whose body this one repeats, received within {@code window} before it; takes the body if none.
     *
     * @param sha256 the body's fingerprint, as its provider computes it
     */
    public Optional<Repeat> repeatOf(WebhookEvent event, byte[] sha256, Duration window) {
        Timestamp receivedAt = Timestamp.from(event.receivedAt());
        Connection connection = em.unwrap(Connection.class);
        try {
            try (PreparedStatement claim = connection.prepareStatement(BodyFingerprint.CLAIM)) {
                claim.setString(1, event.source());
                claim.setBytes(2, sha256);
                claim.setString(3, event.eventId());
                claim.setTimestamp(4, receivedAt);
                if (claim.executeUpdate() == 1) {
                    return Optional.empty();
                }
            }
            String owner;
            Instant ownerReceivedAt;
            try (PreparedStatement query = connection.prepareStatement(BodyFingerprint.OWNER)) {
                query.setString(1, event.source());
                query.setBytes(2, sha256);
                try (ResultSet row = query.executeQuery()) {
                    if (!row.next()) {
                        // Deleted by the retention between the two statements: nothing to repeat.
                        return Optional.empty();
                    }
                    owner = row.getString(1);
                    ownerReceivedAt = row.getTimestamp(2).toInstant();
                }
            }
            if (owner.equals(event.eventId())) {
                return Optional.empty();
            }
            // Either side of the window by receipt time, as the sender's clock does not enter into it: a copy
            // received before the owner (a redelivery of a message queued earlier) repeats it just the same.
            if (Duration.between(ownerReceivedAt, event.receivedAt()).abs().compareTo(window) <= 0) {
                return Optional.of(new Repeat(owner, ownerReceivedAt));
            }
            try (PreparedStatement takeOver = connection.prepareStatement(BodyFingerprint.TAKE_OVER)) {
                takeOver.setString(1, event.eventId());
                takeOver.setTimestamp(2, receivedAt);
                takeOver.setString(3, event.source());
                takeOver.setBytes(4, sha256);
                takeOver.executeUpdate();
            }
            return Optional.empty();
        } catch (SQLException e) {
            throw new EventClaim.ClaimFailure(e);
        }
    }

    /** The event that owns a body, and when it was received. */
    public record Repeat(String eventId, Instant receivedAt) {
    }
}
