package dev.hookstile.queue.boundary;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;

import java.util.Enumeration;
import java.util.Optional;

/** What waits in a queue on the broker, seen through a browser: nothing is consumed or held. */
@ApplicationScoped
public class WaitingMessages {

    @Inject
    ConnectionFactory factory;

    /**
     * The id of the first message in the queue, empty when it is empty. A message the broker has sent to a consumer
     * that has not acknowledged it yet counts as waiting: it is still in the queue.
     */
    public Optional<String> first(String queueName) throws JMSException {
        try (Connection connection = factory.createConnection();
             Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
             QueueBrowser browser = session.createBrowser(session.createQueue(queueName))) {
            connection.start();
            Enumeration<?> messages = browser.getEnumeration();
            return messages.hasMoreElements()
                    ? Optional.of(((Message) messages.nextElement()).getJMSMessageID())
                    : Optional.empty();
        }
    }
}
