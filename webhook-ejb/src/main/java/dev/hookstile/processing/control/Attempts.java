package dev.hookstile.processing.control;

import dev.hookstile.api.WebhookEvent;
import dev.hookstile.events.boundary.EventRecorder;
import dev.hookstile.events.entity.EventStatus;
import dev.hookstile.trace.TraceSpan;
import dev.hookstile.source.BackOfficeDestination;
import dev.hookstile.source.Destination;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The tries of one delivery of an event: in-process retries happen within it, and its failures are written to the
 * event's history once the delivery's outcome is known (a failed try's own transaction rolled back, so what the
 * database records never includes them).
 */
public final class Attempts {

    private final WebhookEvent event;
    private final String headersJson;
    private final String bodyDigest;
    private final int maxAttempts;
    private final int retries;
    private final Duration bodyWindow;
    private final Destination destination;
    private final BackOfficeDestination backOffice;
    private final List<Failure> failures = new ArrayList<>(2);
    private boolean claimed;
    private int attemptsBefore;
    private int replayBase;
    /** How the try that succeeded ended, and how long it took, for the metrics. */
    private Outcome succeeded;
    private long tryNanos;
    private Boolean bodyMatches;
    private int lastAttempt;
    /** The try under way, as a step of the event's trace. */
    private TraceSpan trySpan;
    private int tryAttempt;

    /**
     * @param bodyDigest  the digest its body is stored under, shared with the other events of its delivery;
     *                    {@code null} when the event's record keeps its own copy
     * @param maxAttempts attempts allowed before the event is dead, counted from its last replay
     * @param retries     in-process retries allowed within this delivery
     * @param bodyWindow  how long a body, once processed, makes a repeat of it under another id ignored; zero: never
     * @param destination where the source forwards its processed events, or {@code null}
     * @param backOffice  where the source publishes its processed events on the broker, or {@code null}
     */
    Attempts(WebhookEvent event, String headersJson, String bodyDigest, int maxAttempts, int retries,
             Duration bodyWindow, Destination destination, BackOfficeDestination backOffice) {
        this.event = event;
        this.headersJson = headersJson;
        this.bodyDigest = bodyDigest;
        this.maxAttempts = maxAttempts;
        this.retries = retries;
        this.bodyWindow = bodyWindow;
        this.destination = destination;
        this.backOffice = backOffice;
    }

    Attempts(WebhookEvent event, String headersJson, int maxAttempts, int retries) {
        this(event, headersJson, null, maxAttempts, retries, Duration.ZERO, null, null);
    }

    WebhookEvent event() {
        return event;
    }

    /**
     * The destination this event is forwarded to, if its source has one and it takes the event's type and body (its
     * {@code _DESTINATION_FILTER}).
     */
    Destination forwardTo() {
        return destination != null && destination.forwards(event.type()) && bodyMatches() ? destination : null;
    }

    /**
     * The destination that takes the event's type but not its body: the event is recorded as not forwarded there,
     * with the reason; {@code null} otherwise.
     */
    Destination filteredOut() {
        return destination != null && destination.forwards(event.type()) && !bodyMatches() ? destination : null;
    }

    /** The filter's answer, read once: the claim asks before the try and the try again. */
    private boolean bodyMatches() {
        if (bodyMatches == null) {
            bodyMatches = destination.forwardsBody(event.payload());
        }
        return bodyMatches;
    }

    /** The back-office queue or topic this event is published to, if its source has one for the event's type. */
    BackOfficeDestination publishTo() {
        return backOffice != null && backOffice.publishes(event.type()) ? backOffice : null;
    }

    /** Whether the event has an effect beyond handlers: forwarded or published, it counts as handled. */
    boolean leaves() {
        return forwardTo() != null || publishTo() != null;
    }

    Duration bodyWindow() {
        return bodyWindow;
    }

    String headersJson() {
        return headersJson;
    }

    /** The digest of the shared body the event's record refers to, or {@code null} for a copy of its own. */
    String bodyDigest() {
        return bodyDigest;
    }

    /** The shared body to store before the event's record can refer to it: empty for an event with its own copy. */
    Map<String, byte[]> sharedBody() {
        return bodyDigest == null ? Map.of() : Map.of(bodyDigest, event.payload());
    }

    /** 1 for the delivery's first try. */
    int tryIndex() {
        return failures.size() + 1;
    }

    List<Failure> failures() {
        return failures;
    }

    Failure lastFailure() {
        return failures.get(failures.size() - 1);
    }

    /** A try ended well, and took this long. */
    void succeeded(Outcome outcome, long nanos) {
        succeeded = outcome;
        tryNanos = nanos;
    }

    /** How the try that succeeded ended; {@code null} while none did. */
    Outcome succeeded() {
        return succeeded;
    }

    long tryNanos() {
        return tryNanos;
    }

    void failed(Failure failure) {
        failures.add(failure);
    }

    /** A try claimed the event: what the database recorded before this delivery. */
    void claimed(int attemptsBefore, int replayBase) {
        this.claimed = true;
        this.attemptsBefore = attemptsBefore;
        this.replayBase = replayBase;
    }

    /** Whether the event claimed was queued again by an operator's replay. */
    boolean replayed() {
        return replayBase > 0;
    }

    /**
     * The history lines of this delivery's failed tries, numbered from {@code first}: each {@code retrying}, but the
     * last, which is {@code last} (what the delivery's failure was recorded as, or {@code retrying} before a try
     * that succeeded).
     */
    List<EventRecorder.AttemptLine> failureLines(int first, EventStatus last) {
        var lines = new ArrayList<EventRecorder.AttemptLine>(failures.size());
        for (int i = 0; i < failures.size(); i++) {
            Failure failure = failures.get(i);
            String outcome = (i == failures.size() - 1 ? last : EventStatus.RETRYING).column();
            lines.add(new EventRecorder.AttemptLine(event, first + i, outcome, failure.kind().column(),
                    failure.summary(), failure.at(), failure.durationMillis()));
        }
        return lines;
    }

    /** A try begins, under this step of the event's trace. */
    void tryStarted(TraceSpan span) {
        trySpan = span;
        tryAttempt = 0;
    }

    /** The event as the try's handlers see it: under the try's trace context, at this attempt number. */
    WebhookEvent traced(WebhookEvent claimed) {
        tryAttempt = claimed.attempt();
        return trySpan == null ? claimed : claimed.withTraceParent(trySpan.traceParent());
    }

    /** The try under way, or the last one; {@code null} before the first. */
    TraceSpan trySpan() {
        return trySpan;
    }

    /** The try ended: {@code failure} {@code null} when it committed. */
    void tryEnded(Failure failure) {
        if (trySpan == null) {
            return;
        }
        if (tryAttempt > 0) {
            trySpan.set("hookstile.attempt", tryAttempt);
        }
        if (failure != null) {
            trySpan.set("hookstile.failure", failure.kind().column()).failed(failure.summary());
        } else if (succeeded != null) {
            trySpan.set("hookstile.outcome", succeeded.name().toLowerCase(Locale.ROOT));
        }
        trySpan.end();
    }

    /** The attempt number the delivery's last failure was recorded as. */
    void recorded(int lastAttempt) {
        this.lastAttempt = lastAttempt;
    }

    /** The attempt number of the last failure recorded, 0 before its record. */
    int lastAttempt() {
        return lastAttempt;
    }

    /** Whether an event at this total of attempts, replayed at {@code replayBase}, has used up its allowance. */
    boolean exhausted(int totalAttempts, int replayBase) {
        return totalAttempts - replayBase >= maxAttempts;
    }

    /**
     * Whether another in-process try is allowed after the last failure: a transient one, within the source's
     * retries and the event's allowance. Before any try claimed the event its recorded attempts are unknown; the
     * failure record counts exactly then.
     */
    boolean mayRetry() {
        return !lastFailure().permanent()
                && failures.size() <= retries
                && (!claimed || !exhausted(attemptsBefore + failures.size(), replayBase));
    }
}
