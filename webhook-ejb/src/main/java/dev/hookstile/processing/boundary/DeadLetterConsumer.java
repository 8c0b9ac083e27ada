package dev.hookstile.processing.boundary;

import dev.hookstile.api.WebhookEvent;
import dev.hookstile.platform.boundary.ContainerResources;
import dev.hookstile.platform.boundary.LogFields;
import dev.hookstile.queue.boundary.EventMessage;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Reads Hookstile's events out of the broker's dead letter queue and records each {@code dead}, so that nothing the
 * broker gave up on stays where no operator looks. A message lands there only with a redelivery limit
 * ({@code HOOKSTILE_PROCESSING_MAX_REDELIVERIES}) and only when its last delivery could not even record the failure
 * (the database was down): every other last delivery records the event dead itself.
 *
 * <p>The dead letter queue may be shared with other applications on an external broker: the selector takes only
 * messages with Hookstile's own properties. Redelivered without limit, with back-off, until the database takes the
 * record: a dead letter has nowhere further to go.
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = ContainerResources.RESOURCE_ADAPTER),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination",
                propertyValue = "${ENV=HOOKSTILE_BROKER_DEAD_LETTER_QUEUE:ActiveMQ.DLQ}"),
        @ActivationConfigProperty(propertyName = "messageSelector", propertyValue = DeadLetterConsumer.SELECTOR),
        @ActivationConfigProperty(propertyName = "maxSessions", propertyValue = "1"),
        @ActivationConfigProperty(propertyName = "maximumRedeliveries", propertyValue = "-1"),
        @ActivationConfigProperty(propertyName = "initialRedeliveryDelay",
                propertyValue = "${ENV=HOOKSTILE_PROCESSING_REDELIVERY_DELAY_MS:1000}"),
        @ActivationConfigProperty(propertyName = "useExponentialBackOff", propertyValue = "true"),
        @ActivationConfigProperty(propertyName = "backOffMultiplier", propertyValue = "2"),
        @ActivationConfigProperty(propertyName = "maximumRedeliveryDelay",
                propertyValue = "${ENV=HOOKSTILE_PROCESSING_MAX_REDELIVERY_DELAY_MS:60000}")
})
public class DeadLetterConsumer extends QueueConsumer implements MessageListener {

    static final String SELECTOR = EventMessage.BATCH + " IS NOT NULL";

    /** Set by ActiveMQ on a message it moves to the dead letter queue. */
    private static final String BROKER_CAUSE = "dlqDeliveryFailureCause";

    private static final Logger LOG = Logger.getLogger(DeadLetterConsumer.class.getName());

    @Override
    public void onMessage(Message message) {
        List<EventMessage.Received> events;
        String cause;
        try {
            events = EventMessage.receive(message);
            cause = message.getStringProperty(BROKER_CAUSE);
        } catch (JMSException | RuntimeException unreadable) {
            // Recorded dead with its bytes before it is consumed; redelivered while that cannot be written.
            unreadable(message, unreadable, "dead letter");
            return;
        }
        for (EventMessage.Received received : events) {
            try {
                processor.abandonedByBroker(received, cause);
            } catch (RuntimeException e) {
                // The events recorded before it stay recorded; their redelivery finds them finished.
                context.setRollbackOnly();
                WebhookEvent event = received.event();
                LogFields.event(event).log(LOG, Level.WARNING, e, () -> "Could not record event "
                        + LogFields.name(event.source(), event.eventId()) + " from the dead letter queue; rolled back "
                        + "for redelivery");
                return;
            }
        }
    }
}
