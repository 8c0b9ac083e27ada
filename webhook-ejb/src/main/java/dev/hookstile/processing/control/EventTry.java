package dev.hookstile.processing.control;

import dev.hookstile.api.WebhookEvent;
import dev.hookstile.events.boundary.BodyFingerprints;
import dev.hookstile.events.boundary.EventRecorder;
import dev.hookstile.events.entity.EventStatus;
import dev.hookstile.outbox.boundary.ForwardingSchedule;
import dev.hookstile.source.Provider;
import dev.hookstile.source.boundary.Providers;
import dev.hookstile.source.BackOfficeDestination;
import dev.hookstile.source.Destination;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One try: claim, handlers, history, in a transaction of its own, so that a failed try rolls back completely (its
 * claim and every handler's database work) and the try after it starts clean. Checked exceptions from handlers roll
 * back too.
 *
 * <p>An EJB, not a CDI {@code @Transactional(REQUIRES_NEW)} bean: when the commit or rollback of the new transaction
 * fails (the database went away mid-try), Payara's CDI interceptor throws without resuming the consumer's suspended
 * transaction, and the broker session under it is left inside a transaction branch it can never end; every later
 * message on that session then fails until a restart (found by the fault suite: events acknowledged during a
 * database outage were never processed). The EJB container resumes the caller's transaction whatever happens.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class EventTry {

    @Inject
    EventRecorder claim;

    @Inject
    BodyFingerprints fingerprints;

    @Inject
    Handlers handlers;

    @Inject
    ForwardingSchedule outbox;

    @Inject
    BackOfficePublisher backOffice;

    @Inject
    HandlerDeadline deadline;

    @Inject
    KeyOrder keyOrder;

    /** @throws TryFailed wrapping whatever the try threw, after its transaction was marked for rollback */
    public Outcome run(Attempts attempts, Instant now) throws TryFailed {
        try {
            return tryOnce(attempts, now);
        } catch (Throwable e) {
            // Passed as an application exception: the cause reaches the classifier as thrown, with no EJBException
            // around it and no system-exception log line for an expected handler failure.
            throw new TryFailed(e);
        }
    }

    /**
     * One try of the new events of a message, together: their claims in one statement batch, the handlers of each
     * in turn, their history lines in another batch, and one commit. Only events never recorded before are taken
     * here, with their bodies' fingerprints in one more batch where the source deduplicates bodies; the others, and
     * every event when anything fails (the whole transaction then rolls back), are left for a try of their own
     * ({@link #run}), which retries and records failures as ever. A redelivered message's events are mostly finished already: their claims answer 0
     * and they go alone to find that out.
     *
     * @return the events this try did not process, in the order given
     * @throws TryFailed wrapping whatever the try threw, after its transaction was marked for rollback
     */
    public List<Attempts> runAll(List<Attempts> batch, Instant now) throws TryFailed {
        try {
            return tryAll(batch, now);
        } catch (Throwable e) {
            throw new TryFailed(e);
        }
    }

    private List<Attempts> tryAll(List<Attempts> batch, Instant now) throws Exception {
        var candidates = new ArrayList<Attempts>(batch.size());
        for (Attempts attempts : batch) {
            // Ordered events go alone: each is told whether it is older than its key's last (KeyOrder).
            if (attempts.tryIndex() == 1 && attempts.event().orderKey() == null) {
                candidates.add(attempts);
            }
        }
        // Claimed in key order: transactions claiming overlapping events lock the rows in the same order.
        candidates.sort(BY_KEY);
        var claims = new ArrayList<EventRecorder.NewClaim>(candidates.size());
        var statuses = new IdentityHashMap<Attempts, EventStatus>();
        Map<String, byte[]> bodies = Map.of();
        for (Attempts attempts : candidates) {
            EventStatus status = handlers.handles(attempts.event()) || attempts.leaves()
                    ? EventStatus.COMPLETED : EventStatus.IGNORED;
            statuses.put(attempts, status);
            claims.add(new EventRecorder.NewClaim(attempts.event().withAttempt(1), attempts.headersJson(),
                    attempts.bodyDigest(), status));
            if (attempts.bodyDigest() != null) {
                bodies = bodies.isEmpty() ? new HashMap<>(2) : bodies;
                bodies.putAll(attempts.sharedBody());
            }
        }
        claim.storeBodies(bodies, now);
        boolean[] claimed = claims.isEmpty() ? new boolean[0] : claim.claimNew(claims, now);
        var processed = Collections.newSetFromMap(new IdentityHashMap<Attempts, Boolean>());
        for (int i = 0; i < claimed.length; i++) {
            if (claimed[i]) {
                processed.add(candidates.get(i));
            }
        }
        Map<Attempts, String> repeats = repeatsAmong(processed);
        var lines = new ArrayList<EventRecorder.AttemptLine>(processed.size());
        var alone = new ArrayList<Attempts>(batch.size() - processed.size());
        // Each event's share of the try runs from the end of the one before it (the first's from the try's start,
        // with the group's claims) to the end of its own handlers: one clock read per event, as alone.
        Instant start = now;
        for (Attempts attempts : batch) {
            if (!processed.contains(attempts)) {
                alone.add(attempts);
                continue;
            }
            WebhookEvent claimedEvent = attempts.event().withAttempt(1);
            String repeat = repeats.get(attempts);
            if (repeat != null) {
                claim.setStatus(claimedEvent, EventStatus.IGNORED, repeat);
                Instant end = Instant.now();
                lines.add(new EventRecorder.AttemptLine(claimedEvent, 1, EventStatus.IGNORED.column(), null, repeat,
                        now, Failure.millisBetween(start, end)));
                attempts.succeeded(Outcome.IGNORED, Duration.between(start, end).toNanos());
                start = end;
                continue;
            }
            leave(attempts, claimedEvent, now);
            outbox.processing(claimedEvent);
            deadline.run(() -> handlers.dispatch(claimedEvent));
            Instant end = Instant.now();
            lines.add(new EventRecorder.AttemptLine(claimedEvent, 1, statuses.get(attempts).column(), null, null, now,
                    Failure.millisBetween(start, end)));
            attempts.succeeded(statuses.get(attempts) == EventStatus.COMPLETED ? Outcome.COMPLETED : Outcome.IGNORED,
                    Duration.between(start, end).toNanos());
            start = end;
        }
        if (!lines.isEmpty()) {
            claim.recordAttempts(lines);
        }
        return alone;
    }

    /**
     * Of these events just claimed, those whose body repeats another event's within their source's window, each
     * with the reason it is ignored; the others' bodies are taken, all in one round trip.
     */
    private Map<Attempts, String> repeatsAmong(Set<Attempts> claimed) {
        var looked = new ArrayList<Attempts>(claimed.size());
        var bodies = new ArrayList<BodyFingerprints.Body>(claimed.size());
        for (Attempts attempts : claimed) {
            if (!attempts.bodyWindow().isZero()) {
                looked.add(attempts);
                bodies.add(new BodyFingerprints.Body(attempts.event(), fingerprint(attempts.event()),
                        attempts.bodyWindow()));
            }
        }
        if (bodies.isEmpty()) {
            return Map.of();
        }
        List<Optional<BodyFingerprints.Repeat>> found = fingerprints.repeatsOf(bodies);
        var repeats = new IdentityHashMap<Attempts, String>(2);
        for (int i = 0; i < found.size(); i++) {
            Attempts attempts = looked.get(i);
            found.get(i).ifPresent(repeat -> repeats.put(attempts, repeatReason(repeat, attempts)));
        }
        return repeats;
    }

    private static String repeatReason(BodyFingerprints.Repeat repeat, Attempts attempts) {
        return "repeats the body of event " + repeat.eventId() + " (received " + repeat.receivedAt()
                + ") within the source's body deduplication window of " + attempts.bodyWindow().toSeconds() + " s";
    }

    private static final Comparator<Attempts> BY_KEY = Comparator
            .comparing((Attempts attempts) -> attempts.event().source())
            .thenComparing(attempts -> attempts.event().eventId());

    private Outcome tryOnce(Attempts attempts, Instant now) throws Exception {
        WebhookEvent event = attempts.event();
        int tryIndex = attempts.tryIndex();
        // Forwarded or published counts as handled: the event's effect is what leaves.
        EventStatus status = handlers.handles(event) || attempts.leaves() ? EventStatus.COMPLETED : EventStatus.IGNORED;
        int attempt;
        int replayBase;
        claim.storeBodies(attempts.sharedBody(), now);
        if (claim.claimNew(event.withAttempt(tryIndex), attempts.headersJson(), attempts.bodyDigest(), status, now)) {
            attempt = tryIndex;
            replayBase = 0;
        } else {
            Optional<EventRecorder.State> reclaimed = claim.reclaim(event, status, tryIndex, now);
            if (reclaimed.isEmpty()) {
                return Outcome.OWNED_ELSEWHERE;
            }
            attempt = reclaimed.get().attempts();
            replayBase = reclaimed.get().replayBase();
        }
        attempts.claimed(attempt - tryIndex, replayBase);
        WebhookEvent claimed = keyOrder.processing(event.withAttempt(attempt), now);
        // After the claim, so a second delivery of this very event stops at its claim and never looks; skipped for
        // a replayed event: the operator asked for it to run.
        Optional<BodyFingerprints.Repeat> repeat = attempts.bodyWindow().isZero() || replayBase > 0
                ? Optional.empty() : fingerprints.repeatOf(event, fingerprint(event), attempts.bodyWindow());
        if (repeat.isPresent()) {
            status = EventStatus.IGNORED;
            String reason = repeatReason(repeat.get(), attempts);
            claim.setStatus(claimed, status, reason);
            recordHistory(attempts, claimed, attempt, status, reason, now);
            return Outcome.IGNORED;
        }
        leave(attempts, claimed, now);
        outbox.processing(claimed);
        deadline.run(() -> handlers.dispatch(claimed));
        recordHistory(attempts, claimed, attempt, status, null, now);
        return status == EventStatus.COMPLETED ? Outcome.COMPLETED : Outcome.IGNORED;
    }

    /** What its provider signs of the body, digested; the bytes' digest for a provider this version does not know. */
    private static byte[] fingerprint(WebhookEvent event) {
        Optional<Provider> provider = Providers.byName(event.provider());
        return provider.isPresent() ? provider.get().bodyFingerprint(event.payload()) : Provider.sha256(event.payload());
    }

    /**
     * What leaves with the event, in the try's transaction: the outbox row for the HTTP destination, the message to
     * the back office (the connection factory is XA, so the broker commits it with the database, or neither). Before
     * the handlers, which changes nothing for the outcome (the try commits all or nothing) and lets a handler's
     * failure prove that a message already sent goes back with the rest (BackOfficeIT).
     */
    private void leave(Attempts attempts, WebhookEvent claimed, Instant now) throws JMSException {
        Destination forwardTo = attempts.forwardTo();
        if (forwardTo != null) {
            outbox.schedule(claimed, forwardTo, now);
        }
        BackOfficeDestination publishTo = attempts.publishTo();
        if (publishTo != null) {
            backOffice.publish(claimed, publishTo);
        }
    }

    private void recordHistory(Attempts attempts, WebhookEvent claimed, int attempt, EventStatus status, String note,
                               Instant now) {
        List<Failure> failures = attempts.failures();
        int first = attempt - failures.size();
        for (int i = 0; i < failures.size(); i++) {
            Failure failure = failures.get(i);
            claim.recordAttempt(claimed, first + i, EventStatus.RETRYING.column(), failure.kind().column(),
                    failure.summary(), failure.at(), failure.durationMillis());
        }
        // The outcome is known once the handlers returned; the commit that follows is not counted (the line is part
        // of it). The one clock read a successful try adds: its start was read before it began.
        claim.recordAttempt(claimed, attempt, status.column(), null, note, now,
                Failure.millisBetween(now, Instant.now()));
    }
}
