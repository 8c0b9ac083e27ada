package dev.hookstile.processing.control;

import dev.hookstile.api.WebhookEvent;

import java.util.ArrayList;
import java.util.List;

/**
 * The tries of one delivery of an event: in-process retries happen within it, and its failures are written to the
 * event's history once the delivery's outcome is known (a failed try's own transaction rolled back).
 */
public final class Attempts {

    private final WebhookEvent event;
    private final String headersJson;
    private final int maxAttempts;
    private final int attemptsBeforeReplay;
    private final List<Failure> failures = new ArrayList<>(2);
    private int lastClaimedAttempt;

    /**
     * @param maxAttempts          attempts allowed before the event is dead
     * @param attemptsBeforeReplay attempts already spent before an operator replayed the event: a replay gets a
     *                             fresh allowance
     */
    Attempts(WebhookEvent event, String headersJson, int maxAttempts, int attemptsBeforeReplay) {
        this.event = event;
        this.headersJson = headersJson;
        this.maxAttempts = maxAttempts;
        this.attemptsBeforeReplay = attemptsBeforeReplay;
    }

    WebhookEvent event() {
        return event;
    }

    String headersJson() {
        return headersJson;
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

    void failed(Failure failure) {
        failures.add(failure);
    }

    /** The event's attempt number reached by the last try that claimed it; 0 if none did. */
    int lastClaimedAttempt() {
        return lastClaimedAttempt;
    }

    void claimed(int attempt) {
        lastClaimedAttempt = attempt;
    }

    /** Whether an event at this total of attempts has used up its allowance. */
    boolean exhausted(int totalAttempts) {
        return totalAttempts - attemptsBeforeReplay >= maxAttempts;
    }

    /** Whether another in-process try is allowed after the last failure. */
    boolean mayRetry() {
        return !lastFailure().permanent() && (lastClaimedAttempt == 0 || !exhausted(lastClaimedAttempt));
    }
}
