package dev.hookstile.processing.control;

import dev.hookstile.MapConfig;
import dev.hookstile.api.WebhookEvent;
import dev.hookstile.events.boundary.BodyFingerprints;
import dev.hookstile.events.boundary.EventRecorder;
import dev.hookstile.events.entity.EventStatus;
import dev.hookstile.outbox.boundary.ForwardingSchedule;
import dev.hookstile.search.boundary.SearchKeys;
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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One try's order of work, without a container or a database: the claim first, handlers only for what this try
 * claimed, history last; the events of a message in one try, a single event as a group of one. The event store is a
 * stand-in that remembers claims as the table's primary key would; what commits and rolls back is the ITs' to show.
 */
class EventTryTest {

    private static final Instant NOW = Instant.parse("2026-11-26T12:00:00Z");

    /** The event store, as far as a try sees it: one row per (source, event id). */
    private static class Store extends EventRecorder {
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
        public void recordKeys(List<KeyValue> keys) {
            if (!keys.isEmpty()) {
                calls.add("keys " + keys.stream().map(k -> k.event().eventId() + ":" + k.pointer() + "=" + k.value())
                        .toList());
            }
        }

        @Override
        public void recordAttempts(List<AttemptLine> lines) {
            calls.add("history " + lines.stream().map(l -> l.event().eventId() + ":" + l.attempt() + ":" + l.outcome())
                    .toList());
        }
    }

    private final Store store = new Store();
    private final List<String> handled = new ArrayList<>();
    private final List<String> scheduled = new ArrayList<>();
    private final EventTry eventTry = new EventTry();
    private RuntimeException handlerFailure;

    EventTryTest() {
        eventTry.claim = store;
        eventTry.searchKeys = new SearchKeys(new MapConfig(Map.of("hookstile.sources", "it,quiet",
                "hookstile.sources.it.search-keys", "/customer,/order/id")));
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
            public List<Optional<Repeat>> repeatsOf(List<Body> bodies) {
                store.calls.add("fingerprints " + bodies.stream().map(b -> b.event().eventId()).toList());
                return bodies.stream().map(b -> b.event().eventId().startsWith("repeat")
                        ? Optional.of(new Repeat("original", NOW.minusSeconds(60))) : Optional.<Repeat>empty())
                        .toList();
            }
        };
    }

    private static Attempts attempts(String id, String type) {
        return new Attempts(WebhookEvents.standardWebhooks(type).source("it").eventId(id).payload("{}").build(),
                "{}", 8, 2);
    }

    /** One try of these events, as the consumer makes it; each event's outcome is then on its attempts. */
    private void run(Attempts... group) throws TryFailed {
        eventTry.run(List.of(group), NOW);
    }

    @Test
    void aGroupOfNewEventsIsClaimedTogetherThenHandledInTurnThenRecordedTogether() throws TryFailed {
        Attempts b = attempts("b", "order.paid");
        Attempts a = attempts("a", "order.paid");

        run(b, a);

        assertEquals(List.of("claim [a, b]", "handlers b", "handlers a", "history [b:1:completed, a:1:completed]"),
                store.calls, "claimed in key order, handled in the message's order");
        assertEquals(List.of("b@1", "a@1"), handled);
        assertEquals(Outcome.COMPLETED, a.succeeded());
        assertEquals(Outcome.COMPLETED, b.succeeded());
    }

    @Test
    void anEventAnotherDeliveryFinishedRunsNothingWhileTheRestOfItsGroupRuns() throws TryFailed {
        store.rows.put("it/a", "completed");
        Attempts a = attempts("a", "order.paid");
        Attempts b = attempts("b", "order.paid");

        run(a, b);

        assertEquals(Outcome.OWNED_ELSEWHERE, a.succeeded());
        assertEquals(Outcome.COMPLETED, b.succeeded());
        assertEquals(List.of("b@1"), handled);
        assertEquals(List.of("claim [a, b]", "reclaim a", "handlers b", "history [b:1:completed]"), store.calls);
    }

    @Test
    void aRetryingEventInAGroupIsReclaimedAndRunsAtItsNextAttempt() throws TryFailed {
        store.rows.put("it/r", "retrying");
        Attempts retrying = attempts("r", "order.paid");
        Attempts fresh = attempts("f", "order.paid");

        run(retrying, fresh);

        assertEquals(List.of("r@3", "f@1"), handled);
        assertTrue(store.calls.contains("history [r:3:completed, f:1:completed]"), store.calls.toString());
    }

    @Test
    void theSearchKeysOfEveryClaimedEventAreWrittenInOneBatchBeforeTheHandlersRun() throws TryFailed {
        store.rows.put("it/done", "completed");
        store.rows.put("it/r", "retrying");
        Attempts fresh = keyed("f", "{\"customer\":\"cus_9\",\"order\":{\"id\":42}}");
        Attempts retrying = keyed("r", "{\"customer\":\"cus_7\"}");
        Attempts duplicate = keyed("done", "{\"customer\":\"cus_9\"}");
        Attempts notJson = keyed("x", "not json");

        run(fresh, retrying, duplicate, notJson);

        List<String> keys = store.calls.stream().filter(c -> c.startsWith("keys")).toList();
        assertEquals(List.of("keys [f:/customer=cus_9, f:/order/id=42, r:/customer=cus_7]"), keys,
                "the claimed events' keys, the retried one's too; none of the duplicate or of a body not JSON");
        assertTrue(store.calls.indexOf("handlers f") > store.calls.indexOf(keys.get(0)), "written before the handlers");
    }

    @Test
    void anEventOfASourceWithoutKeysHasItsBodyLeftUnread() throws TryFailed {
        Attempts quiet = new Attempts(WebhookEvents.standardWebhooks("order.paid").source("quiet").eventId("q")
                .payload("{\"customer\":\"cus_9\"}").build(), "{}", 8, 2);

        run(quiet);

        assertTrue(store.calls.stream().noneMatch(c -> c.startsWith("keys")), store.calls.toString());
    }

    private static Attempts keyed(String id, String body) {
        return new Attempts(WebhookEvents.standardWebhooks("order.paid").source("it").eventId(id).payload(body)
                .build(), "{}", 8, 2);
    }

    @Test
    void aDuplicateStopsAtTheClaimAndRunsNothing() throws TryFailed {
        store.rows.put("it/a", "completed");
        Attempts a = attempts("a", "order.paid");

        run(a);

        assertEquals(Outcome.OWNED_ELSEWHERE, a.succeeded());
        assertEquals(List.of(), handled);
        assertEquals(List.of("claim [a]", "reclaim a"), store.calls, "nothing recorded");
    }

    @Test
    void aRetryingEventIsReclaimedAndItsHandlersRunAtItsNextAttempt() throws TryFailed {
        store.rows.put("it/a", "retrying");
        Attempts a = attempts("a", "order.paid");

        run(a);

        assertEquals(Outcome.COMPLETED, a.succeeded());
        assertEquals(List.of("a@3"), handled, "the recorded attempts go on: the third");
        assertTrue(store.calls.contains("history [a:3:completed]"), store.calls.toString());
    }

    @Test
    void aTryAfterFailedTriesRecordsThemAsRetryingBeforeItsOwnLine() throws TryFailed {
        Attempts a = attempts("a", "order.paid");
        a.failed(new Failure(Failure.Kind.TRANSIENT, "busy", NOW));
        a.failed(new Failure(Failure.Kind.TRANSIENT, "still busy", NOW));

        run(a);

        assertEquals(List.of("a@3"), handled);
        assertTrue(store.calls.contains("history [a:1:retrying, a:2:retrying, a:3:completed]"), store.calls.toString());
    }

    @Test
    void anEventNoHandlerTakesIsIgnoredAndRecordedSo() throws TryFailed {
        Attempts a = attempts("a", "nobody.cares");

        run(a);

        assertEquals(Outcome.IGNORED, a.succeeded());
        assertEquals("ignored", store.rows.get("it/a"));
        assertTrue(store.calls.contains("history [a:1:ignored]"), store.calls.toString());
    }

    @Test
    void aForwardedEventCountsAsHandledAndIsScheduledBeforeItsHandlersRun() throws TryFailed {
        var destination = new Destination(URI.create("https://example.test/hooks"), new byte[32], List.of());
        var attempts = new Attempts(WebhookEvents.standardWebhooks("nobody.cares").source("it").eventId("f")
                .payload("{}").build(), "{}", null, 8, 2, Duration.ZERO, destination, null);

        run(attempts);

        assertEquals(Outcome.COMPLETED, attempts.succeeded());
        assertEquals(List.of("f -> https://example.test/hooks"), scheduled);
    }

    @Test
    void aBodyThatRepeatsAnotherEventsIsIgnoredWithTheReasonAndItsHandlersDoNotRun() throws TryFailed {
        var repeat = new Attempts(WebhookEvents.standardWebhooks("order.paid").source("it").eventId("repeat-1")
                .payload("{}").build(), "{}", null, 8, 2, Duration.ofHours(1), null, null);
        var own = new Attempts(WebhookEvents.standardWebhooks("order.paid").source("it").eventId("own-1")
                .payload("{\"a\":1}").build(), "{}", null, 8, 2, Duration.ofHours(1), null, null);

        run(repeat, own);

        assertEquals(Outcome.IGNORED, repeat.succeeded());
        assertEquals(Outcome.COMPLETED, own.succeeded());
        assertEquals(List.of("own-1@1"), handled);
        assertTrue(store.calls.contains("fingerprints [repeat-1, own-1]"), "looked up in one round trip: " + store.calls);
        assertTrue(store.calls.contains("status repeat-1 ignored"), store.calls.toString());
    }

    @Test
    void aReplayedEventIsNotCheckedForARepeatedBody() throws TryFailed {
        store.rows.put("it/repeat-2", "retrying");
        var replayed = new Attempts(WebhookEvents.standardWebhooks("order.paid").source("it").eventId("repeat-2")
                .payload("{}").build(), "{}", null, 8, 2, Duration.ofHours(1), null, null);
        eventTry.claim = new Store() {
            {
                rows.putAll(store.rows);
            }

            @Override
            public Optional<State> reclaim(WebhookEvent event, EventStatus status, int tries, Instant now) {
                return Optional.of(new State(4, 3, status.column()));
            }
        };

        run(replayed);

        assertEquals(Outcome.COMPLETED, replayed.succeeded());
        assertEquals(List.of("repeat-2@4"), handled);
        assertTrue(store.calls.stream().noneMatch(c -> c.startsWith("fingerprints")), store.calls.toString());
    }

    @Test
    void aHandlersFailureComesOutAsTheTrysFailureWithItsCause() {
        handlerFailure = new IllegalStateException("the ledger is down");

        TryFailed failed = assertThrows(TryFailed.class, () -> run(attempts("a", "order.paid")));

        assertInstanceOf(IllegalStateException.class, failed.getCause());
        assertTrue(store.calls.stream().noneMatch(c -> c.startsWith("history")), "no history: the try rolls back");
    }
}
