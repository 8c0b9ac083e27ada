package dev.hookstile.processing.control;

import dev.hookstile.api.WebhookEvent;
import dev.hookstile.events.boundary.BodyFingerprints;
import dev.hookstile.events.boundary.EventRecorder;
import dev.hookstile.events.entity.EventStatus;
import dev.hookstile.outbox.boundary.ForwardingSchedule;
import dev.hookstile.search.boundary.SearchKeys;
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
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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

    @Inject
    SearchKeys searchKeys;

    /**
     * One try of the events of a message, together (a single event is a group of one): their claims in one statement
     * batch, the handlers of each in turn, their history lines in another batch, one commit. An event recorded
     * before (retrying, or queued again by a replay) is claimed again on its row; one another delivery owns or
     * finished is {@link Outcome#OWNED_ELSEWHERE} and runs nothing. When anything fails the whole transaction rolls
     * back, and the caller tries each event alone, which finds the failing one and records it.
     *
     * <p>Each event's {@link Attempts#succeeded() outcome} is set, with its share of the try: from the end of the
     * event before it (the first's from the try's start, with the group's claims) to the end of its own handlers.
     *
     * @throws TryFailed wrapping whatever the try threw, after its transaction was marked for rollback
     */
    public void run(List<Attempts> group, Instant now) throws TryFailed {
        try {
            tryGroup(group, now);
        } catch (Throwable e) {
            // Passed as an application exception: the cause reaches the classifier as thrown, with no EJBException
            // around it and no system-exception log line for an expected handler failure.
            throw new TryFailed(e);
        }
    }

    private void tryGroup(List<Attempts> group, Instant now) throws Exception {
        List<Attempts> byKey = group;
        if (group.size() > 1) {
            // Claimed in key order: transactions claiming overlapping events lock the rows in the same order.
            byKey = new ArrayList<>(group);
            byKey.sort(BY_KEY);
        }
        var claims = new ArrayList<EventRecorder.NewClaim>(byKey.size());
        var statuses = new IdentityHashMap<Attempts, EventStatus>();
        Map<String, byte[]> bodies = Map.of();
        for (Attempts attempts : byKey) {
            // Forwarded or published counts as handled: the event's effect is what leaves.
            EventStatus status = handlers.handles(attempts.event()) || attempts.leaves()
                    ? EventStatus.COMPLETED : EventStatus.IGNORED;
            statuses.put(attempts, status);
            claims.add(new EventRecorder.NewClaim(attempts.event().withAttempt(attempts.tryIndex()),
                    attempts.headersJson(), attempts.bodyDigest(), status));
            if (attempts.bodyDigest() != null) {
                bodies = bodies.isEmpty() ? new HashMap<>(2) : bodies;
                bodies.putAll(attempts.sharedBody());
            }
        }
        claim.storeBodies(bodies, now);
        boolean[] isNew = claim.claimNew(claims, now);
        // Each claimed event as its handlers see it: its attempt number, and whether it is older than its key's last.
        var claimed = new IdentityHashMap<Attempts, WebhookEvent>();
        for (int i = 0; i < isNew.length; i++) {
            Attempts attempts = byKey.get(i);
            int tryIndex = attempts.tryIndex();
            if (isNew[i]) {
                attempts.claimed(0, 0);
                claimed.put(attempts, attempts.traced(attempts.event().withAttempt(tryIndex)));
                continue;
            }
            // A redelivered message's events are mostly finished already: their claims answer 0, and so does this.
            Optional<EventRecorder.State> reclaimed = claim.reclaim(attempts.event(), statuses.get(attempts),
                    tryIndex, now);
            if (reclaimed.isPresent()) {
                int attempt = reclaimed.get().attempts();
                attempts.claimed(attempt - tryIndex, reclaimed.get().replayBase());
                claimed.put(attempts, attempts.traced(attempts.event().withAttempt(attempt)));
            }
        }
        List<EventRecorder.KeyValue> keys = List.of();
        for (Attempts attempts : group) {
            WebhookEvent event = claimed.get(attempts);
            if (event != null) {
                claimed.put(attempts, keyOrder.processing(event, now));
                if (searchKeys.has(event.source())) {
                    keys = keys.isEmpty() ? new ArrayList<>() : keys;
                    SearchKeyRows.add(searchKeys, event, keys);
                }
            }
        }
        claim.recordKeys(keys);
        Map<Attempts, String> repeats = repeatsAmong(group, claimed);
        var lines = new ArrayList<EventRecorder.AttemptLine>(group.size() + 1);
        Instant start = now;
        for (Attempts attempts : group) {
            WebhookEvent event = claimed.get(attempts);
            if (event == null) {
                attempts.succeeded(Outcome.OWNED_ELSEWHERE, 0);
                continue;
            }
            EventStatus status = statuses.get(attempts);
            String repeat = repeats.get(attempts);
            if (repeat != null) {
                status = EventStatus.IGNORED;
                claim.setStatus(event, status, repeat);
            } else {
                leave(attempts, event, now);
                outbox.processing(event);
                deadline.run(() -> handlers.dispatch(event));
            }
            // The outcome is known once the handlers returned; the commit that follows is not counted (the line is
            // part of it). One clock read per event: the try's start was read before it began.
            Instant end = Instant.now();
            lines.addAll(attempts.failureLines(event.attempt() - attempts.failures().size(), EventStatus.RETRYING));
            lines.add(new EventRecorder.AttemptLine(event, event.attempt(), status.column(), null, repeat, now,
                    Failure.millisBetween(start, end)));
            attempts.succeeded(status == EventStatus.COMPLETED ? Outcome.COMPLETED : Outcome.IGNORED,
                    Duration.between(start, end).toNanos());
            start = end;
        }
        if (!lines.isEmpty()) {
            claim.recordAttempts(lines);
        }
    }

    /**
     * Of these events just claimed, those whose body repeats another event's within their source's window, each
     * with the reason it is ignored; the others' bodies are taken, all in one round trip. After the claim, so a
     * second delivery of this very event stops at its claim and never looks; a replayed event is not looked at:
     * the operator asked for it to run.
     */
    private Map<Attempts, String> repeatsAmong(List<Attempts> group, Map<Attempts, WebhookEvent> claimed) {
        var looked = new ArrayList<Attempts>(group.size());
        var bodies = new ArrayList<BodyFingerprints.Body>(group.size());
        for (Attempts attempts : group) {
            if (claimed.containsKey(attempts) && !attempts.bodyWindow().isZero() && !attempts.replayed()) {
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
        Destination filteredOut = attempts.filteredOut();
        if (filteredOut != null) {
            outbox.filtered(claimed, filteredOut, now);
        }
        BackOfficeDestination publishTo = attempts.publishTo();
        if (publishTo != null) {
            backOffice.publish(claimed, publishTo);
        }
    }
}
