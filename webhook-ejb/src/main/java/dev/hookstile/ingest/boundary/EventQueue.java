package dev.hookstile.ingest.boundary;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;

import java.time.Instant;
import java.util.Map;

/**
 * The durable hand-off: sends an accepted event to the processing queue as a persistent message, outside any
 * transaction, so {@code send} returns only once the broker has stored it.
 *
 * <p>Connections come from the container's pool for the resource adapter's connection factory and are closed after
 * each send, which returns them to that pool. Keeping our own pool of open producers across requests is not an
 * option with this connector: the container ties a handle to the request that opened it and the handles leaked
 * until the pool was exhausted (measured: in-use connections reached the maximum within a second under load).
 */
@ApplicationScoped
public class EventQueue {

    @Inject
    ConnectionFactory factory;

    @Inject
    Queue queue;

    public void send(String source, String provider, String eventId, String type, Instant receivedAt,
                     Map<String, String> headers, byte[] body) throws HandOffFailure {
        send(session -> EventMessage.create(session, source, provider, eventId, type, receivedAt, headers, body));
    }

    /**
     * Queues a recorded event again (a replay). Called inside a JTA transaction, the send joins it (the connection
     * factory is XA): the message exists only if the caller's status change commits.
     *
     * @param headersJson the retained headers as recorded
     */
    public void resend(String source, String provider, String eventId, String type, Instant receivedAt,
                       String headersJson, byte[] body) throws HandOffFailure {
        send(session -> EventMessage.create(session, source, provider, eventId, type, receivedAt, headersJson, body));
    }

    @FunctionalInterface
    private interface MessageFactory {
        Message create(Session session) throws JMSException;
    }

    private void send(MessageFactory message) throws HandOffFailure {
        try (Connection connection = factory.createConnection();
             Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
             MessageProducer producer = session.createProducer(queue)) {
            producer.setDeliveryMode(DeliveryMode.PERSISTENT);
            producer.send(message.create(session));
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
