package dev.hookstile.processing.control;

import dev.hookstile.api.WebhookEvent;
import dev.hookstile.source.BackOfficeDestination;
import dev.hookstile.source.Destination;
import dev.hookstile.test.WebhookEvents;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What one delivery of an event may still try, and where a processed event leaves to. */
class AttemptsTest {

    private static final WebhookEvent INVOICE = WebhookEvents.stripe("invoice.paid").payload("{}").build();
    private static final Instant AT = Instant.parse("2026-11-26T12:00:00Z");

    private static Failure transientFailure() {
        return new Failure(Failure.Kind.TRANSIENT, "the database is busy", AT);
    }

    private static Failure permanentFailure() {
        return new Failure(Failure.Kind.PERMANENT, "not an invoice", AT);
    }

    @Test
    void eachFailureMakesTheNextTryTheNextIndex() {
        var attempts = new Attempts(INVOICE, "{}", 8, 2);
        assertEquals(1, attempts.tryIndex());

        attempts.failed(transientFailure());

        assertEquals(2, attempts.tryIndex());
        assertEquals(List.of(transientFailure()), attempts.failures());
    }

    @Test
    void aTransientFailureIsRetriedInProcessAsOftenAsTheSourceAllows() {
        var attempts = new Attempts(INVOICE, "{}", 8, 2);

        attempts.failed(transientFailure());
        assertTrue(attempts.mayRetry(), "first retry");
        attempts.failed(transientFailure());
        assertTrue(attempts.mayRetry(), "second retry");
        attempts.failed(transientFailure());
        assertFalse(attempts.mayRetry(), "no third: back to the broker's back-off");
    }

    @Test
    void aPermanentFailureIsNeverRetried() {
        var attempts = new Attempts(INVOICE, "{}", 8, 2);

        attempts.failed(permanentFailure());

        assertFalse(attempts.mayRetry());
    }

    @Test
    void noRetryOnceTheEventsAllowanceIsUsedUp() {
        var attempts = new Attempts(INVOICE, "{}", 3, 5);
        // The database had recorded two attempts of an earlier delivery: this delivery's first try is the third.
        attempts.claimed(2, 0);

        attempts.failed(transientFailure());

        assertFalse(attempts.mayRetry(), "3 of 3 attempts used");
        assertTrue(attempts.exhausted(3, 0));
        assertFalse(attempts.exhausted(2, 0));
    }

    @Test
    void aReplayGivesTheEventAFreshAllowance() {
        var attempts = new Attempts(INVOICE, "{}", 3, 5);
        // Dead after three attempts, then replayed: the replay counts from attempt 3.
        attempts.claimed(3, 3);

        attempts.failed(transientFailure());

        assertTrue(attempts.mayRetry(), "attempt 4 is the replay's first");
        assertFalse(attempts.exhausted(5, 3));
        assertTrue(attempts.exhausted(6, 3));
    }

    @Test
    void beforeAnyClaimOnlyTheRetriesCount() {
        var attempts = new Attempts(INVOICE, "{}", 1, 2);

        attempts.failed(transientFailure());

        // Not claimed yet (the claim itself failed): how many attempts the database holds is unknown.
        assertTrue(attempts.mayRetry());
    }

    @Test
    void anEventLeavesOnlyForTheTypesItsDestinationsTake() {
        var forward = new Destination(URI.create("https://example.test/hooks"), new byte[32], List.of("invoice.*"));
        var backOffice = BackOfficeDestination.parse("queue:billing", List.of("charge.refunded"));
        var attempts = new Attempts(INVOICE, "{}", null, 8, 2, Duration.ZERO, forward, backOffice);

        assertSame(forward, attempts.forwardTo());
        assertNull(attempts.publishTo(), "the back office takes refunds only");
        assertTrue(attempts.leaves());
        assertFalse(new Attempts(INVOICE, "{}", 8, 2).leaves());
    }

    @Test
    void anEventWhoseBodyTheDestinationsFilterDoesNotContainIsRecordedNotForwardedAndDoesNotCountAsHandled() {
        var live = new Destination(URI.create("https://example.test/hooks"), new byte[32], null, List.of("invoice.*"),
                dev.hookstile.source.JsonMatch.parse("{\"data\":{\"object\":{\"livemode\":true}}}"), null);
        WebhookEvent test = WebhookEvents.stripe("invoice.paid")
                .payload("{\"data\":{\"object\":{\"livemode\":false}}}").build();
        WebhookEvent production = WebhookEvents.stripe("invoice.paid")
                .payload("{\"data\":{\"object\":{\"livemode\":true,\"amount\":5}}}").build();

        var notForwarded = new Attempts(test, "{}", null, 8, 2, Duration.ZERO, live, null);
        assertNull(notForwarded.forwardTo());
        assertSame(live, notForwarded.filteredOut(), "recorded as not forwarded there");
        assertFalse(notForwarded.leaves(), "nothing leaves: without a handler the event is ignored");
        var forwarded = new Attempts(production, "{}", null, 8, 2, Duration.ZERO, live, null);
        assertSame(live, forwarded.forwardTo());
        assertNull(forwarded.filteredOut());
        assertNull(new Attempts(WebhookEvents.stripe("customer.created").payload("{}").build(), "{}", null, 8, 2,
                Duration.ZERO, live, null).filteredOut(), "a type it does not take is not its filter's business");
    }

    @Test
    void onlyAnEventWithASharedBodyStoresIt() {
        var shared = new Attempts(INVOICE, "{}", "digest-1", 8, 2, Duration.ZERO, null, null);

        assertEquals(Map.of("digest-1", INVOICE.payload()), shared.sharedBody());
        assertEquals(Map.of(), new Attempts(INVOICE, "{}", 8, 2).sharedBody());
    }
}
