package dev.hookstile.queue.boundary;

import dev.hookstile.dedup.boundary.DuplicateLookup;
import dev.hookstile.platform.boundary.ContainerResources;
import dev.hookstile.platform.boundary.OwnThreads;
import dev.hookstile.queue.boundary.EventMessage.Outgoing;
import dev.hookstile.queue.control.SentMessages;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.concurrent.ContextService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * The durable hand-off: puts accepted events on the processing queue as persistent messages, outside any
 * transaction, and answers only once the broker has stored them.
 *
 * <p>Events are handed off in groups, in two stages. Request threads leave their events here and wait; a lookup
 * thread takes every event waiting and asks the database which of them it has recorded already (those are answered
 * {@code duplicate}); a sender thread takes every event the lookup passed on (up to
 * {@code hookstile.ingest.hand-off.max-events}, about {@value #MAX_BYTES} bytes), sends them as one message, and
 * wakes the requests. The stages overlap: while one group is being sent, the next is being looked up. Under load the events that
 * arrive while one group is on its way form the next, so the broker's and the database's cost per message (a synced
 * journal write, a dispatch, a transaction, a commit) is shared by every event in it; a lone event goes at once,
 * alone. Measured in {@code docs/benchmarks.md}.
 *
 * <p>Connections come from the container's pool for the resource adapter's connection factory and are closed after
 * each send, which returns them to that pool. Keeping producers open across requests is not an option with this
 * connector: the container ties a handle to the request that opened it and the handles leaked until the pool was
 * exhausted (measured: in-use connections reached the maximum within a second under load).
 *
 * <p>Longer than 300 lines because the two stages (the lookup and sender threads, their hand-over, wake-ups and
 * failure answers) are one concurrency design whose invariants would otherwise span files.
 */
@ApplicationScoped
public class EventQueue {

    private static final Logger LOG = Logger.getLogger(EventQueue.class.getName());

    /**
     * The JMS priority of a replay's message: below new deliveries' (the default, 4), so that a broker dispatching
     * by priority serves new deliveries first. ActiveMQ does so only with {@code prioritizedMessages} on the queue's
     * policy; what keeps a replay from crowding out new deliveries on any broker is its pacing ({@code ReplayJobs}).
     */
    public static final int REPLAY_PRIORITY = 1;

    /** Roughly the most bytes of events one message carries; a larger event goes alone. */
    static final int MAX_BYTES = 1 << 20;

    /** What became of an event handed off. */
    public enum Result {
        /** On the queue now. */
        QUEUED,
        /** Recorded in the database already (an earlier delivery, another instance): not queued again. */
        RECORDED
    }

    @Inject
    ConnectionFactory factory;

    /** The senders' (see ContainerResources.HAND_OFF_CONNECTION_FACTORY): outside any transaction. */
    @Inject
    @ContainerResources.HandOff
    ConnectionFactory handOffFactory;

    @Inject
    Queue queue;

    @Inject
    DuplicateLookup duplicates;

    @Inject
    SentMessages messages;

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

    /** Left by requests, for the lookup. */
    private final LinkedBlockingDeque<HandOff> waiting = new LinkedBlockingDeque<>();
    /** Not known to the database, for the senders. */
    private final LinkedBlockingDeque<HandOff> toSend = new LinkedBlockingDeque<>();
    /**
     * How many threads send to the broker at once, each with one pooled broker connection while it sends. One
     * makes the largest groups, and the database lookup runs in a thread of its own meanwhile: measured, one sender
     * acked a third more than two, each looking up and sending in turn.
     */
    @Inject
    @ConfigProperty(name = "hookstile.ingest.hand-off.senders", defaultValue = "1")
    int senderCount;

    private volatile boolean started;
    private volatile boolean stopped;
    private final List<Thread> senders = new ArrayList<>();

    /** An event waiting to be handed off, and the request waiting for its result. */
    private record HandOff(Outgoing event, CompletableFuture<Result> result) {
    }

    /**
     * Starts the senders on the first hand-off, from a request's thread, where the application's context is
     * certainly there for the thread factory to capture (not, say, on the health check's thread).
     */
    private synchronized void startSenders() throws HandOffFailure {
        if (started || stopped) {
            return;
        }
        try {
            // Every thread of the hand-off is made here, on a request's thread, none later by a stage itself.
            duplicates.start();
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
        senders.add(thread);
    }

    @PreDestroy
    synchronized void stop() {
        stopped = true;
        senders.forEach(Thread::interrupt);
        try {
            for (Thread sender : senders) {
                sender.join(TimeUnit.SECONDS.toMillis(5));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (LinkedBlockingDeque<HandOff> deque : List.of(waiting, toSend)) {
            HandOff left;
            while ((left = deque.pollFirst()) != null) {
                left.result().completeExceptionally(new IllegalStateException("the application is stopping"));
            }
        }
    }

    /**
     * Hands these events off and waits until each is stored by the broker or found recorded.
     *
     * @return each event's result, in order
     * @throws HandOffFailure when any of them could not be stored: the sender must retry the delivery
     */
    public List<Result> handOff(List<Outgoing> events) throws HandOffFailure {
        if (stopped) {
            throw new HandOffFailure("the application is stopping", null);
        }
        if (!started) {
            startSenders();
        }
        var handOffs = new ArrayList<HandOff>(events.size());
        for (Outgoing event : events) {
            handOffs.add(new HandOff(event, new CompletableFuture<>()));
        }
        waiting.addAll(handOffs);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        var results = new ArrayList<Result>(events.size());
        for (HandOff handOff : handOffs) {
            try {
                results.add(handOff.result().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
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
        return results;
    }

    /** The request gives up: the sender skips what it has not taken yet; what it sent stays (the claim dedups). */
    private static void abandon(List<HandOff> handOffs) {
        for (HandOff handOff : handOffs) {
            handOff.result().cancel(false);
        }
    }

    /** The first stage: takes what requests left, answers the events the database knows, passes the rest on. */
    private void lookUpWhileRunning() {
        var group = new ArrayList<HandOff>(maxEvents);
        while (take(waiting, group)) {
            try {
                // Requests that gave up meanwhile are not sent: they were answered 503 already.
                group.removeIf(handOff -> handOff.result().isDone());
                toSend.addAll(withoutRecorded(group));
            } catch (RuntimeException | Error e) {
                failAll(group, e);
            }
        }
    }

    /** The second stage: sends what the first passed on, as much at a time as one message takes. */
    private void sendWhileRunning() {
        var group = new ArrayList<HandOff>(maxEvents);
        while (take(toSend, group)) {
            try {
                send(group);
            } catch (RuntimeException | Error e) {
                failAll(group, e);
            }
        }
    }

    /**
     * Waits for the first hand-off in the deque, then takes what else is waiting up to a message's worth.
     *
     * @return {@code false} when the application stops
     */
    private boolean take(LinkedBlockingDeque<HandOff> from, List<HandOff> group) {
        group.clear();
        HandOff first = null;
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
        HandOff next;
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
    private static void failAll(List<HandOff> group, Throwable e) {
        LOG.log(Level.SEVERE, e, () -> "Handing off " + group.size() + " events failed unexpectedly");
        group.forEach(handOff -> handOff.result().completeExceptionally(e));
    }

    private void send(List<HandOff> group) {
        group.removeIf(handOff -> handOff.result().isDone());
        if (group.isEmpty()) {
            return;
        }
        // One message per queue: the event queue, and the ordered queue of each order key in the group. Sent one
        // after another from this one thread, so the events of a key reach their queue in the order of their acks.
        var byQueue = new LinkedHashMap<String, List<HandOff>>();
        for (HandOff handOff : group) {
            byQueue.computeIfAbsent(queueOf(handOff.event()), name -> new ArrayList<>()).add(handOff);
        }
        for (Map.Entry<String, List<HandOff>> part : byQueue.entrySet()) {
            var events = new ArrayList<Outgoing>(part.getValue().size());
            part.getValue().forEach(handOff -> events.add(handOff.event()));
            try {
                sendNow(handOffFactory, part.getKey(), events, Message.DEFAULT_PRIORITY);
                messages.sent();
            } catch (HandOffFailure e) {
                part.getValue().forEach(handOff -> handOff.result().completeExceptionally(
                        e.getCause() == null ? e : e.getCause()));
                continue;
            }
            part.getValue().forEach(handOff -> handOff.result().complete(Result.QUEUED));
        }
    }

    /**
     * The queue an event goes to: the event queue, or for an event with an order key the ordered queue its key
     * hashes to, always the same one for a source and key.
     */
    public static String queueOf(Outgoing event) {
        if (event.orderKey() == null) {
            return ContainerResources.QUEUE_NAME;
        }
        int hash = (event.source() + '\n' + event.orderKey()).hashCode();
        var names = ContainerResources.ORDERED_QUEUE_NAMES;
        return names.get(Math.floorMod(hash, names.size()));
    }

    /** Answers the events the database knows ({@link Result#RECORDED}); the others are returned, to be sent. */
    private List<HandOff> withoutRecorded(List<HandOff> group) {
        var bySource = new LinkedHashMap<String, List<String>>();
        for (HandOff handOff : group) {
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
        var unknown = new ArrayList<HandOff>(group.size());
        for (HandOff handOff : group) {
            if (recorded.getOrDefault(handOff.event().source(), Set.of()).contains(handOff.event().eventId())) {
                handOff.result().complete(Result.RECORDED);
            } else {
                unknown.add(handOff);
            }
        }
        return unknown;
    }

    /**
     * Queues a recorded event again (a replay), at once, on the caller's thread. Called inside a JTA transaction,
     * the send joins it (the connection factory is XA): the message exists only if the caller's status change
     * commits.
     *
     * @param headersJson the retained headers as recorded
     */
    public void resend(Outgoing event) throws HandOffFailure {
        sendNow(factory, queueOf(event), List.of(event), REPLAY_PRIORITY);
    }

    private void sendNow(ConnectionFactory through, String queueName, List<Outgoing> events, int priority)
            throws HandOffFailure {
        boolean ordered = !ContainerResources.QUEUE_NAME.equals(queueName);
        try (Connection connection = through.createConnection();
             Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
             MessageProducer producer = session.createProducer(ordered ? session.createQueue(queueName) : queue)) {
            producer.setDeliveryMode(DeliveryMode.PERSISTENT);
            producer.setPriority(priority);
            BytesMessage message = EventMessage.create(session, events);
            if (ordered) {
                // One group per ordered queue: the broker gives it to one consumer at a time, across instances.
                message.setStringProperty("JMSXGroupID", queueName);
            }
            producer.send(message);
        } catch (JMSException | RuntimeException e) {
            throw new HandOffFailure("the broker did not accept the event", e);
        }
    }

    /** Opens and closes a connection: a real round trip to the broker, for the readiness check. */
    public void ping() throws JMSException {
        try (Connection connection = factory.createConnection();
             Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE)) {
            session.createProducer(queue).close();
        }
    }
}
