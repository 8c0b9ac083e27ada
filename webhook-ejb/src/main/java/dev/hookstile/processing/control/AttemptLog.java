package dev.hookstile.processing.control;

import dev.hookstile.api.WebhookEvent;
import dev.hookstile.dedup.control.EventClaim;
import dev.hookstile.dedup.entity.EventStatus;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Writes down a delivery that failed: the event becomes {@code retrying} (the broker will redeliver it) or
 * {@code dead} (permanent failure, attempts used up, or the broker's last delivery), with one history line per try.
 * In a transaction of its own: the record must survive the rollback that hands a retrying message back to the
 * broker.
 */
@ApplicationScoped
public class AttemptLog {

    @Inject
    EventClaim claim;

    /**
     * @param lastDelivery the broker will not redeliver this message again: dead whatever the failure
     * @return the status written, or empty if the event was meanwhile finished by another delivery (nothing written)
     */
    @Transactional(value = Transactional.TxType.REQUIRES_NEW, rollbackOn = Exception.class)
    public Optional<EventStatus> recordFailure(Attempts attempts, boolean lastDelivery, Instant now) {
        WebhookEvent event = attempts.event();
        List<Failure> failures = attempts.failures();
        Failure last = attempts.lastFailure();
        int total = attempts.lastClaimedAttempt() > 0
                ? attempts.lastClaimedAttempt()
                : claim.attempts(event.source(), event.eventId()).orElse(0) + failures.size();
        boolean dead = last.permanent() || lastDelivery || attempts.exhausted(total);
        EventStatus status = dead ? EventStatus.DEAD : EventStatus.RETRYING;
        if (!claim.recordFailure(event, attempts.headersJson(), status, total, last.summary(), now)) {
            return Optional.empty();
        }
        int first = total - failures.size() + 1;
        for (int i = 0; i < failures.size(); i++) {
            Failure failure = failures.get(i);
            String outcome = i == failures.size() - 1 ? status.column() : EventStatus.RETRYING.column();
            claim.recordAttempt(event, first + i, outcome, failure.kind().column(), failure.summary(), failure.at());
        }
        return Optional.of(status);
    }
}
