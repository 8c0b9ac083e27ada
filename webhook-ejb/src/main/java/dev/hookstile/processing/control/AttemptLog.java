package dev.hookstile.processing.control;

import dev.hookstile.api.WebhookEvent;
import dev.hookstile.events.boundary.EventRecorder;
import dev.hookstile.events.entity.EventStatus;
import dev.hookstile.search.boundary.SearchKeys;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Writes down a delivery that failed: the event becomes {@code retrying} (the broker will redeliver it) or
 * {@code dead} (permanent failure, attempts used up, or the broker's last delivery), with one history line per try.
 * In a transaction of its own: the record must survive the rollback that hands a retrying message back to the
 * broker. The count is taken on the locked row: a failed try's claim rolled back, so the recorded attempts never
 * include this delivery's tries, and concurrent deliveries of the same event add up instead of overwriting each
 * other.
 *
 * <p>An EJB for the reason {@link EventTry} is one: a failed commit must still resume the consumer's
 * transaction.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class AttemptLog {

    @Inject
    EventRecorder claim;

    @Inject
    SearchKeys searchKeys;

    /**
     * @param lastDelivery the broker will not redeliver this message again: dead whatever the failure
     * @return the status written, or empty if the event was meanwhile finished by another delivery (nothing written)
     */
    public Optional<EventStatus> recordFailure(Attempts attempts, boolean lastDelivery, Instant now) {
        WebhookEvent event = attempts.event();
        int tries = attempts.failures().size();
        Optional<EventRecorder.State> recorded = claim.lock(event.source(), event.eventId());
        if (recorded.isEmpty()) {
            EventStatus status = status(attempts, lastDelivery, tries, 0);
            claim.storeBodies(attempts.sharedBody(), now);
            if (claim.insertFailure(event, attempts.headersJson(), attempts.bodyDigest(), status, tries,
                    attempts.lastFailure().summary(), now)) {
                // Found by its keys too: a dead event is what an operator most often looks for.
                var keys = new ArrayList<EventRecorder.KeyValue>(0);
                SearchKeyRows.add(searchKeys, event, keys);
                claim.recordKeys(keys);
                writeHistory(attempts, tries, status);
                return Optional.of(status);
            }
            // A concurrent delivery recorded the event first: count on its row.
            recorded = claim.lock(event.source(), event.eventId());
            if (recorded.isEmpty()) {
                // Not recorded, and not recordable: a tombstone. It was processed long ago and deleted by the
                // retention; this is a replay of it, finished like any duplicate.
                return Optional.empty();
            }
        }
        EventRecorder.State state = recorded.orElseThrow(() -> new IllegalStateException(
                "the record of " + event + " vanished while its failure was being recorded"));
        if (!state.open()) {
            return Optional.empty();
        }
        int total = state.attempts() + tries;
        EventStatus status = status(attempts, lastDelivery, total, state.replayBase());
        claim.updateFailure(event, status, total, attempts.lastFailure().summary(), now);
        writeHistory(attempts, total, status);
        return Optional.of(status);
    }

    /**
     * Records a message no delivery can read, {@code dead} with why, its bytes as the payload.
     *
     * @return {@code false} when it is recorded already (a redelivery of the same message, or an event of that
     *         identity recorded by another delivery): nothing written
     */
    public boolean recordUnreadable(UnreadableMessage message, Instant now) {
        var event = new WebhookEvent(message.source(), message.provider(), message.eventId(), message.type(),
                message.receivedAt(), 1, Map.of(), message.payload());
        if (!claim.insertFailure(event, message.headersJson(), null, EventStatus.DEAD, 1, message.reason(), now)) {
            return false;
        }
        // No try ran: no duration.
        claim.recordAttempts(List.of(new EventRecorder.AttemptLine(event, 1, EventStatus.DEAD.column(),
                Failure.Kind.PERMANENT.column(), message.reason(), now, null)));
        return true;
    }

    private void writeHistory(Attempts attempts, int total, EventStatus status) {
        attempts.recorded(total);
        claim.recordAttempts(attempts.failureLines(total - attempts.failures().size() + 1, status));
    }

    private static EventStatus status(Attempts attempts, boolean lastDelivery, int total, int replayBase) {
        boolean dead = attempts.lastFailure().permanent() || lastDelivery || attempts.exhausted(total, replayBase);
        return dead ? EventStatus.DEAD : EventStatus.RETRYING;
    }
}
