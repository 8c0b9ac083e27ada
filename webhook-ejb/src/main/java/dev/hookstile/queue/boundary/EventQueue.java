package dev.hookstile.queue.boundary;

import dev.hookstile.platform.boundary.ContainerResources;
import dev.hookstile.queue.boundary.EventMessage.Outgoing;
import dev.hookstile.queue.control.SentMessages;
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

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The processing queues: puts events on them as persistent messages ({@link EventMessage}), outside any transaction
 * for ingest's grouped hand-off ({@link HeldProducer#send}), inside the caller's for a replay ({@link #resend}).
 *
 * <p>Connections come from the container's pool for the resource adapter's connection factory. A replay's send takes
 * one and closes it afterwards, which returns it to that pool. Ingest's sender threads each hold one connection,
 * session and producer from one send to the next ({@link HeldProducer}): opening them per send cost a synchronous
 * round trip to the broker (the producer's registration) and three more commands the broker's threads handle for
 * every message, which at a few hundred events a second is a message each. Held by a request instead, they
 * leaked: the container ties a handle to the request that opened it, and the pool was exhausted within a second
 * under load; a sender thread lives as long as the application and holds exactly one.
 */
@ApplicationScoped
public class EventQueue {

    /**
     * The JMS priority of a replay's message: below new deliveries' (the default, 4), so that a broker dispatching
     * by priority serves new deliveries first. ActiveMQ does so only with {@code prioritizedMessages} on the queue's
     * policy; what keeps a replay from crowding out new deliveries on any broker is its pacing ({@code ReplayJobs}).
     */
    public static final int REPLAY_PRIORITY = 1;

    /** One group per ordered queue: the broker gives it to one consumer at a time, across instances. */
    private static final String GROUP_PROPERTY = "JMSXGroupID";

    @Inject
    ConnectionFactory factory;

    /** The hand-off's (see ContainerResources.HAND_OFF_CONNECTION_FACTORY): outside any transaction. */
    @Inject
    @ContainerResources.HandOff
    ConnectionFactory handOffFactory;

    @Inject
    Queue queue;

    @Inject
    SentMessages messages;

    /** A producer for one thread's sends, outside any transaction: opened at its first send, closed by its owner. */
    public HeldProducer holdProducer() {
        return new HeldProducer();
    }

    /**
     * One thread's connection, session and producer, held from one send to the next. Not thread-safe: a JMS session
     * belongs to one thread.
     */
    public class HeldProducer implements AutoCloseable {

        private Connection connection;
        private Session session;
        private MessageProducer producer;
        private final Map<String, Queue> orderedQueues = new HashMap<>();

        /**
         * Sends these events as one persistent message to the named queue ({@link #queueOf}), outside any
         * transaction, and returns once the broker has stored it.
         */
        public void send(String queueName, List<Outgoing> events) throws HandOffFailure {
            boolean held = producer != null;
            try {
                sendOnce(queueName, events);
            } catch (JMSException | RuntimeException e) {
                close();
                if (!held) {
                    throw new HandOffFailure("the broker did not accept the event", e);
                }
                // The connection held since an earlier send may have died meanwhile (a broker restart): once more on
                // a new one, as a connection drawn from the pool for this send would have been. Should the first try
                // have been stored after all, the event is queued twice and the claim processes it once.
                try {
                    sendOnce(queueName, events);
                } catch (JMSException | RuntimeException again) {
                    close();
                    again.addSuppressed(e);
                    throw new HandOffFailure("the broker did not accept the event", again);
                }
            }
            messages.sent();
        }

        private void sendOnce(String queueName, List<Outgoing> events) throws JMSException {
            if (producer == null) {
                connection = handOffFactory.createConnection();
                session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                // Without a destination: one producer for the event queue and every ordered queue.
                producer = session.createProducer(null);
            }
            boolean ordered = !ContainerResources.QUEUE_NAME.equals(queueName);
            Queue destination = queue;
            if (ordered) {
                destination = orderedQueues.get(queueName);
                if (destination == null) {
                    destination = session.createQueue(queueName);
                    orderedQueues.put(queueName, destination);
                }
            }
            BytesMessage message = EventMessage.create(session, events);
            if (ordered) {
                message.setStringProperty(GROUP_PROPERTY, queueName);
            }
            producer.send(destination, message, DeliveryMode.PERSISTENT, Message.DEFAULT_PRIORITY,
                    Message.DEFAULT_TIME_TO_LIVE);
        }

        /** Returns the connection to the container's pool (its session and producer close with it). */
        @Override
        public void close() {
            Connection held = connection;
            connection = null;
            session = null;
            producer = null;
            orderedQueues.clear();
            if (held != null) {
                try {
                    held.close();
                } catch (JMSException | RuntimeException e) {
                    // Already broken: the pool replaces it.
                }
            }
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

    /**
     * Queues a recorded event again (a replay), at once, on the caller's thread. Called inside a JTA transaction,
     * the send joins it (the connection factory is XA): the message exists only if the caller's status change
     * commits.
     *
     * @param headersJson the retained headers as recorded
     */
    public void resend(Outgoing event) throws HandOffFailure {
        String queueName = queueOf(event);
        boolean ordered = !ContainerResources.QUEUE_NAME.equals(queueName);
        try (Connection connection = factory.createConnection();
             Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
             MessageProducer producer = session.createProducer(ordered ? session.createQueue(queueName) : queue)) {
            producer.setDeliveryMode(DeliveryMode.PERSISTENT);
            producer.setPriority(REPLAY_PRIORITY);
            BytesMessage message = EventMessage.create(session, List.of(event));
            if (ordered) {
                message.setStringProperty(GROUP_PROPERTY, queueName);
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
