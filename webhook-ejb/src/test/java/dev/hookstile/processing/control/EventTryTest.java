package dev.hookstile.processing.control;

import dev.hookstile.api.WebhookEvent;
import dev.hookstile.events.boundary.BodyFingerprints;
import dev.hookstile.events.boundary.EventRecorder;
import dev.hookstile.events.entity.EventStatus;
import dev.hookstile.outbox.boundary.ForwardingSchedule;
import dev.hookstile.source.Destination;
import dev.hookstile.test.WebhookEvents;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One try's order of work, without a container or a database: the claim first, handlers only for what this try
 * claimed, history last, and what a batch leaves for tries of their own. The event store is a stand-in that
 * remembers claims as the table's primary key would; what commits and rolls back is the ITs' to show.
 */
class EventTryTest {

    private static final Instant NOW = Instant.parse("2026-11-26T12:00:00Z");

    /** The event store, as far as a try sees it: one row per (source, event id). */
    private static final class Store extends EventRecorder {
        final Map<String, String> rows = new HashMap<>();
        final List<String> calls = new ArrayList<>();

        private static String key(WebhookEvent event) {
            return event.source() + "/" + event.eventId();
        }

        @Override
        public void storeBodies(Map<String, byte[]> bodies, Instant now) {
            if (!bodies.isEmpty()) {
                calls.add("bodies " + bodies.keySet());
            }
        }

        @Override
        public boolean[] claimNew(List<NewClaim> claims, Instant now) {
            calls.add("claim " + claims.stream().map(c -> c.event().eventId()).toList());
            boolean[] claimed = new boolean[claims.size()];
            for (int i = 0; i < claims.size(); i++) {
                claimed[i] = rows.putIfAbsent(key(claims.get(i).event()), claims.get(i).status().column()) == null;
            }
            return claimed;
        }

        @Override
        public boolean claimNew(WebhookEvent event, String headersJson, String bodyDigest, EventStatus status,
                                Instant now) {
            calls.add("claim " + event.eventId());
            return rows.putIfAbsent(key(event), status.column()) == null;
        }

        @Override
        public Optional<State> reclaim(WebhookEvent event, EventStatus status, int tries, Instant now) {
            calls.add("reclaim " + event.eventId());
            String row = rows.get(key(event));
            if ("retrying".equals(row)) {
                rows.put(key(event), status.column());
                return Optional.of(new State(3, 0, row));
            }
            return Optional.empty();
        }

        @Override
        public void setStatus(WebhookEvent event, EventStatus status, String reason) {
            calls.add("status " + event.eventId() + " " + status.column());
            rows.put(key(event), status.column());
        }

        @Override
        public void recordAttempts(List<AttemptLine> lines) {
            calls.add("history " + lines.stream().map(l -> l.event().eventId() + ":" + l.outcome()).toList());
        }

        @Override
        public void recordAttempt(WebhookEvent event, int attempt, String outcome, String failure, String error,
                                  Instant at, Integer durationMillis) {
            calls.add("history " + event.eventId() + ":" + attempt + ":" + outcome);
        }
    }

    private final Store store = new Store();
    private final List<String> handled = new ArrayList<>();
    private final List<String> scheduled = new ArrayList<>();
    private final EventTry eventTry = new EventTry();
    private RuntimeException handlerFailure;

    EventTryTest() {
        eventTry.claim = store;
        eventTry.handlers = new Handlers() {
            @Override
            public boolean handles(WebhookEvent event) {
                return !event.type().equals("nobody.cares");
            }

            @Override
            public void dispatch(WebhookEvent event) {
                handled.add(event.eventId() + "@" + event.attempt());
                store.calls.add("handlers " + event.eventId());
                if (handlerFailure != null) {
                    throw handlerFailure;
                }
            }
        };
        eventTry.deadline = new HandlerDeadline() {
            @Override
            public void run(Work work) throws Exception {
                work.run();
            }
        };
        eventTry.outbox = new ForwardingSchedule() {
            @Override
            public void processing(WebhookEvent event) {
            }

            @Override
            public void schedule(WebhookEvent event, Destination destination, Instant now) {
                scheduled.add(event.eventId() + " -> " + destination.url());
            }
        };
        eventTry.keyOrder = new KeyOrder() {
            @Override
            WebhookEvent processing(WebhookEvent event, Instant now) {
                return event;
            }
        };
        eventTry.fingerprints = new BodyFingerprints() {
            @Override
            public Optional<Repeat> repeatOf(WebhookEvent event, byte[] sha256, Duration window) {
                return event.eventId().startsWith("repeat")
                        ? Optional.of(new Repeat("original", NOW.minusSeconds(60))) : Optional.empty();
            }
        };
    }

    private static Attempts attempts(String id, String type) {
        return new Attempts(WebhookEvents.standardWebhooks(type).source("it").eventId(id).payload("{}").build(),
                "{}", 8, 2);
    }

    @Test
    void aBatchOfNewEventsIsClaimedTogetherThenHandledInTurnThenRecordedTogether() throws TryFailed {
        List<Attempts> left = eventTry.runAll(List.of(attempts("b", "order.paid"), attempts("a", "order.paid")), NOW);

        assertEquals(List.of(), left);
        assertEquals(List.of("claim [a, b]", "handlers b", "handlers a", "history [b:completed, a:completed]"),
                store.calls, "claimed in key order, handled in the message's order");
        assertEquals(List.of("b@1", "a@1"), handled);
    }

    @Test
    void anEventAnotherDeliveryClaimedIsLeftForATryOfItsOwnAndItsHandlersDoNotRun() throws TryFailed {
        store.rows.put("it/a", "completed");
        Attempts a = attempts("a", "order.paid");

        List<Attempts> left = eventTry.runAll(List.of(a, attempts("b", "order.paid")), NOW);

        assertEquals(1, left.size());
        assertSame(a, left.get(0));
        assertEquals(List.of("b@1"), handled);
    }

    @Test
    void orderedEventsAndRetriesAreNeverBatched() throws TryFailed {
        Attempts ordered = new Attempts(WebhookEvents.standardWebhooks("order.paid").source("it").eventId("o")
                .orderKey("cus_1", false).payload("{}").build(), "{}", 8, 2);
        Attempts retry = attempts("r", "order.paid");
        retry.failed(new Failure(Failure.Kind.TRANSIENT, "busy", NOW));

        List<Attempts> left = eventTry.runAll(List.of(ordered, retry), NOW);

        assertEquals(List.of(ordered, retry), left);
        assertEquals(List.of(), handled);
    }

    @Test
    void aDuplicateStopsAtTheClaimAndRunsNothing() throws TryFailed {
        store.rows.put("it/a", "completed");

        Outcome outcome = eventTry.run(attempts("a", "order.paid"), NOW);

        assertEquals(Outcome.OWNED_ELSEWHERE, outcome);
        assertEquals(List.of(), handled);
        assertEquals(List.of("claim a", "reclaim a"), store.calls, "nothing recorded");
    }

    @Test
    void aRetryingEventIsReclaimedAndItsHandlersRunAtItsNextAttempt() throws TryFailed {
        store.rows.put("it/a", "retrying");

        Outcome outcome = eventTry.run(attempts("a", "order.paid"), NOW);

        assertEquals(Outcome.COMPLETED, outcome);
        assertEquals(List.of("a@3"), handled, "the recorded attempts go on: the third");
        assertTrue(store.calls.contains("history a:3:completed"), store.calls.toString());
    }

    @Test
    void anEventNoHandlerTakesIsIgnoredAndRecordedSo() throws TryFailed {
        Outcome outcome = eventTry.run(attempts("a", "nobody.cares"), NOW);

        assertEquals(Outcome.IGNORED, outcome);
        assertEquals("ignored", store.rows.get("it/a"));
        assertTrue(store.calls.contains("history a:1:ignored"), store.calls.toString());
    }

    @Test
    void aForwardedEventCountsAsHandledAndIsScheduledBeforeItsHandlersRun() throws TryFailed {
        var destination = new Destination(URI.create("https://example.test/hooks"), new byte[32], List.of());
        var attempts = new Attempts(WebhookEvents.standardWebhooks("nobody.cares").source("it").eventId("f")
                .payload("{}").build(), "{}", null, 8, 2, Duration.ZERO, destination, null);

        Outcome outcome = eventTry.run(attempts, NOW);

        assertEquals(Outcome.COMPLETED, outcome);
        assertEquals(List.of("f -> https://example.test/hooks"), scheduled);
    }

    @Test
    void aBodyThatRepeatsAnotherEventsIsIgnoredWithTheReasonAndItsHandlersDoNotRun() throws TryFailed {
        var attempts = new Attempts(WebhookEvents.standardWebhooks("order.paid").source("it").eventId("repeat-1")
                .payload("{}").build(), "{}", null, 8, 2, Duration.ofHours(1), null, null);

        Outcome outcome = eventTry.run(attempts, NOW);

        assertEquals(Outcome.IGNORED, outcome);
        assertEquals(List.of(), handled);
        assertTrue(store.calls.contains("status repeat-1 ignored"), store.calls.toString());
    }

    @Test
    void aHandlersFailureComesOutAsTheTrysFailureWithItsCause() {
        handlerFailure = new IllegalStateException("the ledger is down");

        TryFailed failed = assertThrows(TryFailed.class, () -> eventTry.run(attempts("a", "order.paid"), NOW));

        assertInstanceOf(IllegalStateException.class, failed.getCause());
        assertTrue(store.calls.stream().noneMatch(c -> c.startsWith("history")), "no history: the try rolls back");
    }
}
