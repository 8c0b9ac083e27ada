package dev.hookstile.events.boundary;

import dev.hookstile.api.WebhookEvent;
import dev.hookstile.events.control.BodyFingerprintStatements;
import dev.hookstile.platform.StatementFailure;

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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
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
     * An event's body to look up, with its source's window.
     *
     * @param sha256 the body's fingerprint, as its provider computes it
     */
    public record Body(WebhookEvent event, byte[] sha256, Duration window) {
    }

    /**
     * For each of these bodies, the event whose body it repeats, received within its window before or after it; a
     * body no event took within its window is taken. In one round trip when none is taken yet (the usual case): the
     * fingerprints are inserted together, and only a body whose fingerprint exists is looked at alone.
     *
     * @return for each body, in the order given, the event it repeats
     */
    public List<Optional<Repeat>> repeatsOf(List<Body> bodies) {
        // Inserted in key order, so that two transactions taking overlapping bodies wait in one order, never for
        // each other.
        var order = new ArrayList<Integer>(bodies.size());
        for (int i = 0; i < bodies.size(); i++) {
            order.add(i);
        }
        order.sort(Comparator.comparing((Integer i) -> bodies.get(i).event().source())
                .thenComparing(i -> bodies.get(i).sha256(), Arrays::compareUnsigned));
        Connection connection = em.unwrap(Connection.class);
        try {
            int[] inserted;
            try (PreparedStatement claim = connection.prepareStatement(BodyFingerprintStatements.CLAIM)) {
                for (int i : order) {
                    Body body = bodies.get(i);
                    claim.setString(1, body.event().source());
                    claim.setBytes(2, body.sha256());
                    claim.setString(3, body.event().eventId());
                    claim.setTimestamp(4, Timestamp.from(body.event().receivedAt()));
                    claim.addBatch();
                }
                inserted = claim.executeBatch();
            }
            var repeats = new ArrayList<Optional<Repeat>>(Collections.nCopies(bodies.size(), Optional.empty()));
            for (int k = 0; k < order.size(); k++) {
                if (inserted[k] == 0) {
                    int i = order.get(k);
                    repeats.set(i, repeatOfTaken(connection, bodies.get(i)));
                } else if (inserted[k] != 1) {
                    // A driver that batches without counts (reWriteBatchedInserts) cannot say who took a body.
                    throw new SQLException("the driver answered " + inserted[k] + " for a body fingerprint");
                }
            }
            return repeats;
        } catch (SQLException e) {
            throw new StatementFailure(e);
        }
    }

    /** The repeat, if any, of a body whose fingerprint another event took first. */
    private static Optional<Repeat> repeatOfTaken(Connection connection, Body body) throws SQLException {
        WebhookEvent event = body.event();
        String owner;
        Instant ownerReceivedAt;
        try (PreparedStatement query = connection.prepareStatement(BodyFingerprintStatements.OWNER)) {
            query.setString(1, event.source());
            query.setBytes(2, body.sha256());
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
        if (Duration.between(ownerReceivedAt, event.receivedAt()).abs().compareTo(body.window()) <= 0) {
            return Optional.of(new Repeat(owner, ownerReceivedAt));
        }
        try (PreparedStatement takeOver = connection.prepareStatement(BodyFingerprintStatements.TAKE_OVER)) {
            takeOver.setString(1, event.eventId());
            takeOver.setTimestamp(2, Timestamp.from(event.receivedAt()));
            takeOver.setString(3, event.source());
            takeOver.setBytes(4, body.sha256());
            takeOver.executeUpdate();
        }
        return Optional.empty();
    }

    /** The event that owns a body, and when it was received. */
    public record Repeat(String eventId, Instant receivedAt) {
    }
}
