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

import java.util.List;

/**
 * The processing queues: puts events on them as persistent messages ({@link EventMessage}), outside any transaction
 * for ingest's grouped hand-off ({@link #send}), inside the caller's for a replay ({@link #resend}).
 *
 * <p>Connections come from the container's pool for the resource adapter's connection factory and are closed after
 * each send, which returns them to that pool. Keeping producers open across requests is not an option with this
 * connector: the container ties a handle to the request that opened it and the handles leaked until the pool was
 * exhausted (measured: in-use connections reached the maximum within a second under load).
 */
@ApplicationScoped
public class EventQueue {

    /**
     * The JMS priority of a replay's message: below new deliveries' (the default, 4), so that a broker dispatching
     * by priority serves new deliveries first. ActiveMQ does so only with {@code prioritizedMessages} on the queue's
     * policy; what keeps a replay from crowding out new deliveries on any broker is its pacing ({@code ReplayJobs}).
     */
    public static final int REPLAY_PRIORITY = 1;

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

    /**
     * Sends these events as one persistent message to the named queue ({@link #queueOf}), outside any transaction,
     * and returns once the broker has stored it.
     */
    public void send(String queueName, List<Outgoing> events) throws HandOffFailure {
        sendNow(handOffFactory, queueName, events, Message.DEFAULT_PRIORITY);
        messages.sent();
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
