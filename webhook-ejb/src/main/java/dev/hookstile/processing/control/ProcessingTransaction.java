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
 * One try: claim, handlers, history, in a transaction of its own, so that a failed try rolls back completely (its
 * claim and every handler's database work) and the try after it starts clean. Checked exceptions from handlers roll
 * back too.
 */
@ApplicationScoped
public class ProcessingTransaction {

    @Inject
    EventClaim claim;

    @Inject
    Handlers handlers;

    @Transactional(value = Transactional.TxType.REQUIRES_NEW, rollbackOn = Exception.class)
    public Outcome run(Attempts attempts, Instant now) throws Exception {
        WebhookEvent event = attempts.event();
        int tryIndex = attempts.tryIndex();
        EventStatus status = handlers.handles(event) ? EventStatus.COMPLETED : EventStatus.IGNORED;
        int attempt;
        if (claim.claimNew(event.withAttempt(tryIndex), attempts.headersJson(), status, now)) {
            attempt = tryIndex;
            attempts.claimed(0, 0);
        } else {
            Optional<EventClaim.State> reclaimed = claim.reclaim(event, status, tryIndex, now);
            if (reclaimed.isEmpty()) {
                return Outcome.DUPLICATE;
            }
            attempt = reclaimed.get().attempts();
            attempts.claimed(attempt - tryIndex, reclaimed.get().replayBase());
        }
        WebhookEvent claimed = event.withAttempt(attempt);
        handlers.dispatch(claimed);
        List<Failure> failures = attempts.failures();
        int first = attempt - failures.size();
        for (int i = 0; i < failures.size(); i++) {
            Failure failure = failures.get(i);
            claim.recordAttempt(claimed, first + i, EventStatus.RETRYING.column(), failure.kind().column(),
                    failure.summary(), failure.at());
        }
        claim.recordAttempt(claimed, attempt, status.column(), null, null, now);
        return status == EventStatus.COMPLETED ? Outcome.COMPLETED : Outcome.IGNORED;
    }
}
