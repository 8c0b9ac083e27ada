package dev.hookstile.ingest.control;

import dev.hookstile.dedup.boundary.DuplicateLookup;
import dev.hookstile.ingest.Outcome;
import dev.hookstile.platform.boundary.OwnThreads;
import dev.hookstile.queue.boundary.EventMessage.Outgoing;
import dev.hookstile.queue.boundary.EventQueue;
import dev.hookstile.queue.boundary.HandOffFailure;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.concurrent.ContextService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Ingest's durable hand-off: puts accepted events on the processing queue ({@link EventQueue}) and answers only
 * once the broker has stored them, or the database says they are recorded already.
 *
 * <p>Events are handed off in groups, in two stages. Request threads leave their events here and wait; a lookup
 * thread takes every event waiting and asks the database which of them it has recorded already (those are answered
 * {@link Outcome#DUPLICATE}); a sender thread takes every event the lookup passed on (up to
 * {@code hookstile.ingest.hand-off.max-events}, about {@value #MAX_BYTES} bytes), sends them as one message per
 * queue, and wakes the requests. The stages overlap: while one group is being sent, the next is being looked up.
 * Under load the events that arrive while one group is on its way form the next, so the broker's and the database's
 * cost per message (a synced journal write, a dispatch, a transaction, a commit) is shared by every event in it; a
 * lone event goes at once, alone. Measured in {@code docs/benchmarks.md}.
 *
 * <p>Longer than 300 lines because the stages hand each event on through two deques, and their start, stop, failure
 * and timing are read best beside the loops they belong to.
 */
@ApplicationScoped
public class HandOff {

    private static final Logger LOG = Logger.getLogger(HandOff.class.getName());

    /** Roughly the most bytes of events one message carries; a larger event goes alone. */
    private static final int MAX_BYTES = 1 << 20;

    @Inject
    EventQueue queue;

    @Inject
    DuplicateLookup duplicates;

    @Inject
    ContextService context;

    /** The most events in one message. 1 sends every event alone, as before the hand-off was grouped. */
    @Inject
    @ConfigProperty(name = "hookstile.ingest.hand-off.max-events", defaultValue = "64")
    int maxEvents;

    /**
     * How long a request waits for its hand-off before it is answered {@code 503}: the broker takes a persistent
     * send in milliseconds when it is well, so this only bounds a broker that stopped answering.
     */
    @Inject
    @ConfigProperty(name = "hookstile.ingest.hand-off.timeout-seconds", defaultValue = "5")
    int timeoutSeconds;

    /**
     * How many threads send to the broker at once, each holding one pooled broker connection (its session and
     * producer too, {@link EventQueue.HeldProducer}) while the application runs. One
     * makes the largest groups, and the database lookup runs in a thread of its own meanwhile: measured, one sender
     * acked a third more than two, each looking up and sending in turn.
     */
    @Inject
    @ConfigProperty(name = "hookstile.ingest.hand-off.senders", defaultValue = "1")
    int senderCount;

    /** A file for the hand-off's timeline ({@link HandOffTimeline}): diagnostics, none unless set. */
    @Inject
    @ConfigProperty(name = "hookstile.ingest.hand-off.timeline")
    Optional<String> timelineFile;

    /** {@code null} without one: then no hand-off is timed. */
    private volatile HandOffTimeline timeline;

    /** Left by requests, for the lookup; then, not known to the database, for the senders. */
    private final LinkedBlockingDeque<Waiting> waiting = new LinkedBlockingDeque<>();
    private final LinkedBlockingDeque<Waiting> toSend = new LinkedBlockingDeque<>();
    private volatile boolean started;
    private volatile boolean stopped;
    private final List<Thread> stages = new ArrayList<>();

    /**
     * An event waiting to be handed off, and the request waiting for its outcome; {@code marks} when a timeline is
     * kept, when it passed each stage ({@link HandOffTimeline}).
     */
    private record Waiting(Outgoing event, CompletableFuture<Outcome> outcome, long[] marks)
            implements HandOffTimeline.Timed {
    }

    /**
     * Starts the stages on the first hand-off, from a request's thread, where the application's context is
     * certainly there for the thread factory to capture (not, say, on the health check's thread).
     */
    private synchronized void startStages() throws HandOffFailure {
        if (started || stopped) {
            return;
        }
        try {
            // Every thread of the hand-off is made here, on a request's thread, none later by a stage itself.
            duplicates.start();
            timeline = timelineFile.map(file -> HandOffTimeline.appendingTo(Path.of(file))).orElse(null);
            start(this::lookUpWhileRunning, "hookstile-hand-off-lookup");
            for (int i = 1; i <= Math.max(1, senderCount); i++) {
                start(this::sendWhileRunning, "hookstile-hand-off-" + i);
            }
        } catch (RuntimeException e) {
            throw new HandOffFailure("could not start the hand-off", e);
        }
        started = true;
    }

    private void start(Runnable stage, String name) {
        Thread thread = OwnThreads.withContext(context, name).newThread(stage);
        thread.start();
        stages.add(thread);
    }

    @PreDestroy
    synchronized void stop() {
        stopped = true;
        stages.forEach(Thread::interrupt);
        try {
            for (Thread stage : stages) {
                stage.join(TimeUnit.SECONDS.toMillis(5));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (LinkedBlockingDeque<Waiting> deque : List.of(waiting, toSend)) {
            Waiting left;
            while ((left = deque.pollFirst()) != null) {
                left.outcome().completeExceptionally(new IllegalStateException("the application is stopping"));
            }
        }
        if (timeline != null) {
            timeline.close();
        }
    }

    /**
     * Hands these events off and waits until each is stored by the broker ({@link Outcome#ACCEPTED}) or found
     * recorded ({@link Outcome#DUPLICATE}).
     *
     * @return each event's outcome, in order
     * @throws HandOffFailure when any of them could not be stored: the sender must retry the delivery
     */
    public List<Outcome> send(List<Outgoing> events) throws HandOffFailure {
        if (stopped) {
            throw new HandOffFailure("the application is stopping", null);
        }
        if (!started) {
            startStages();
        }
        HandOffTimeline timed = timeline;
        var handOffs = new ArrayList<Waiting>(events.size());
        for (Outgoing event : events) {
            handOffs.add(new Waiting(event, new CompletableFuture<>(),
                    timed == null ? null : new long[HandOffTimeline.MARKS]));
        }
        HandOffTimeline.mark(handOffs, HandOffTimeline.LEFT);
        waiting.addAll(handOffs);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        var outcomes = new ArrayList<Outcome>(events.size());
        for (Waiting handOff : handOffs) {
            try {
                outcomes.add(handOff.outcome().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
            } catch (ExecutionException e) {
                throw new HandOffFailure("the broker did not accept the event", e.getCause());
            } catch (TimeoutException | CancellationException e) {
                abandon(handOffs);
                throw new HandOffFailure("the broker did not confirm the event within " + timeoutSeconds + " s", e);
            } catch (InterruptedException e) {
                abandon(handOffs);
                Thread.currentThread().interrupt();
                throw new HandOffFailure("interrupted while handing off the event", e);
            }
        }
        if (timed != null) {
            timed.record(handOffs.get(handOffs.size() - 1).marks(), handOffs.size(), System.nanoTime());
        }
        return outcomes;
    }

    /** The request gives up: the sender skips what it has not taken yet; what it sent stays (the claim dedups). */
    private static void abandon(List<Waiting> handOffs) {
        for (Waiting handOff : handOffs) {
            handOff.outcome().cancel(false);
        }
    }

    /** The first stage: takes what requests left, answers the events the database knows, passes the rest on. */
    private void lookUpWhileRunning() {
        var group = new ArrayList<Waiting>(maxEvents);
        while (take(waiting, group)) {
            try {
                HandOffTimeline.mark(group, HandOffTimeline.LOOKUP_TOOK);
                // Requests that gave up meanwhile are not sent: they were answered 503 already.
                group.removeIf(handOff -> handOff.outcome().isDone());
                List<Waiting> unknown = withoutRecorded(group);
                HandOffTimeline.mark(unknown, HandOffTimeline.LOOKED_UP);
                toSend.addAll(unknown);
            } catch (RuntimeException | Error e) {
                failAll(group, e);
            }
        }
    }

    /** The second stage: sends what the first passed on, as much at a time as one message takes. */
    private void sendWhileRunning() {
        var group = new ArrayList<Waiting>(maxEvents);
        try (EventQueue.HeldProducer producer = queue.holdProducer()) {
            while (take(toSend, group)) {
                try {
                    HandOffTimeline.mark(group, HandOffTimeline.SENDER_TOOK);
                    sendGroup(producer, group);
                } catch (RuntimeException | Error e) {
                    failAll(group, e);
                }
            }
        }
    }

    /**
     * Waits for the first hand-off in the deque, then takes what else is waiting up to a message's worth.
     *
     * @return {@code false} when the application stops
     */
    private boolean take(LinkedBlockingDeque<Waiting> from, List<Waiting> group) {
        group.clear();
        Waiting first = null;
        while (first == null) {
            if (stopped) {
                return false;
            }
            try {
                first = from.pollFirst(1, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                return false;
            }
        }
        group.add(first);
        int bytes = first.event().size(null);
        Waiting next;
        while (group.size() < maxEvents && (next = from.pollFirst()) != null) {
            int size = next.event().size(group.get(group.size() - 1).event());
            if (bytes + size > MAX_BYTES) {
                from.offerFirst(next);
                break;
            }
            group.add(next);
            bytes += size;
        }
        return true;
    }

    /** A stage must never die: every later request would wait for its timeout. */
    private static void failAll(List<Waiting> group, Throwable e) {
        LOG.log(Level.SEVERE, e, () -> "Handing off " + group.size() + " events failed unexpectedly");
        group.forEach(handOff -> handOff.outcome().completeExceptionally(e));
    }

    private void sendGroup(EventQueue.HeldProducer producer, List<Waiting> group) {
        group.removeIf(handOff -> handOff.outcome().isDone());
        if (group.isEmpty()) {
            return;
        }
        // One message per queue: the event queue, and the ordered queue of each order key in the group. Sent one
        // after another from this one thread, so the events of a key reach their queue in the order of their acks.
        var byQueue = new LinkedHashMap<String, List<Waiting>>();
        for (Waiting handOff : group) {
            byQueue.computeIfAbsent(EventQueue.queueOf(handOff.event()), name -> new ArrayList<>()).add(handOff);
        }
        for (Map.Entry<String, List<Waiting>> part : byQueue.entrySet()) {
            var events = new ArrayList<Outgoing>(part.getValue().size());
            part.getValue().forEach(handOff -> events.add(handOff.event()));
            try {
                producer.send(part.getKey(), events);
                HandOffTimeline.mark(part.getValue(), HandOffTimeline.SENT);
            } catch (HandOffFailure e) {
                part.getValue().forEach(handOff -> handOff.outcome().completeExceptionally(
                        e.getCause() == null ? e : e.getCause()));
                continue;
            }
            part.getValue().forEach(handOff -> handOff.outcome().complete(Outcome.ACCEPTED));
        }
    }

    /** Answers the events the database knows ({@link Outcome#DUPLICATE}); the others are returned, to be sent. */
    private List<Waiting> withoutRecorded(List<Waiting> group) {
        var bySource = new LinkedHashMap<String, List<String>>();
        for (Waiting handOff : group) {
            bySource.computeIfAbsent(handOff.event().source(), source -> new ArrayList<>()).add(handOff.event().eventId());
        }
        var recorded = new LinkedHashMap<String, Set<String>>();
        for (Map.Entry<String, List<String>> source : bySource.entrySet()) {
            Set<String> known = duplicates.recordedAmong(source.getKey(), source.getValue());
            if (!known.isEmpty()) {
                recorded.put(source.getKey(), known);
            }
        }
        if (recorded.isEmpty()) {
            return group;
        }
        var unknown = new ArrayList<Waiting>(group.size());
        for (Waiting handOff : group) {
            if (recorded.getOrDefault(handOff.event().source(), Set.of()).contains(handOff.event().eventId())) {
                handOff.outcome().complete(Outcome.DUPLICATE);
            } else {
                unknown.add(handOff);
            }
        }
        return unknown;
    }
}
