package dev.hookstile.processing.boundary;

import dev.hookstile.processing.control.EventProcessor;
import dev.hookstile.processing.control.UnreadableMessages;
import jakarta.annotation.Resource;
import jakarta.ejb.MessageDrivenContext;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Queue;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What the consumers of Hookstile's queues share ({@link EventConsumer}: the event queue and the ordered ones;
 * {@link DeadLetterConsumer}): the processor they hand events to, their transaction, and what they do with a message
 * they cannot read as events.
 */
// Each consumer implements MessageListener itself, as an MDB class must: a container may look for the listener
// interface among the class's own interfaces only.
abstract class QueueConsumer {

    private static final Logger LOG = Logger.getLogger(QueueConsumer.class.getName());

    @Inject
    EventProcessor processor;

    @Inject
    UnreadableMessages unreadableMessages;

    @Resource
    MessageDrivenContext context;

    /**
     * A message that cannot be read as events (another producer on the queue, a damaged message): no delivery can
     * ever process it, yet it may carry events acknowledged to their senders. Consumed only once it is recorded dead
     * with its bytes, where an operator sees it; rolled back for redelivery while that cannot be written.
     *
     * @param what the message as a warning names it: {@code message}, {@code dead letter}
     */
    void unreadable(Message message, Exception failure, String what) {
        try {
            unreadableMessages.record(message, failure, queueOf(message));
        } catch (RuntimeException e) {
            context.setRollbackOnly();
            LOG.log(Level.WARNING, e, () -> "Could not record an unreadable " + what + "; rolled back for redelivery");
        }
    }

    /** The queue the message came from, for the operator: its destination as the broker names it. */
    static String queueOf(Message message) {
        try {
            return message.getJMSDestination() instanceof Queue queue ? queue.getQueueName()
                    : String.valueOf(message.getJMSDestination());
        } catch (JMSException | RuntimeException e) {
            return "a Hookstile queue";
        }
    }
}
