package dev.hookstile.processing.boundary;

import dev.hookstile.api.WebhookEvent;
import dev.hookstile.platform.boundary.ContainerResources;
import dev.hookstile.platform.boundary.LogFields;
import dev.hookstile.processing.control.ConsumerActivity;
import dev.hookstile.queue.boundary.EventMessage;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Takes events off the queue, one container-managed transaction per message, and delegates. The message is consumed
 * when the event was processed, found already processed, or recorded dead (a message that cannot be read at all
 * too: recorded dead with its bytes, {@link #unreadable}); it goes back to the broker (a
 * rollback, redelivered with exponential back-off) when the event is retrying or its failure could not even be
 * recorded (the database is down). ActiveMQ logs an ERROR for each rolled-back delivery; that is expected.
 *
 * <p>Deployed five times: by its annotation on the event queue, with {@code HOOKSTILE_PROCESSING_CONCURRENCY}
 * sessions, and by {@code META-INF/ejb-jar.xml} once per ordered queue ({@code OrderedEventConsumer0} to {@code 3}),
 * with one session each, so that the events of a key are processed one at a time in the order they were queued.
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = ContainerResources.RESOURCE_ADAPTER),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = ContainerResources.QUEUE_NAME),
        @ActivationConfigProperty(propertyName = "maxSessions",
                propertyValue = "${ENV=HOOKSTILE_PROCESSING_CONCURRENCY:8}"),
        // Unlimited by default: an event's failures end in 'dead' after its max attempts, so redeliveries beyond
        // that only happen while a failure cannot even be recorded (the database is down), and those must wait for
        // the database, not end in ActiveMQ.DLQ. With a limit, Hookstile records the last delivery dead itself.
        @ActivationConfigProperty(propertyName = "maximumRedeliveries", propertyValue = EventConsumer.MAX_REDELIVERIES),
        @ActivationConfigProperty(propertyName = "initialRedeliveryDelay", propertyValue = EventConsumer.FIRST_DELAY),
        @ActivationConfigProperty(propertyName = "useExponentialBackOff", propertyValue = "true"),
        @ActivationConfigProperty(propertyName = "backOffMultiplier", propertyValue = "2"),
        @ActivationConfigProperty(propertyName = "maximumRedeliveryDelay", propertyValue = EventConsumer.LONGEST_DELAY)
})
public class EventConsumer extends QueueConsumer implements MessageListener {

    // The broker's redelivery of a rolled-back message, the same for the ordered queues' consumers.
    static final String MAX_REDELIVERIES = "${ENV=HOOKSTILE_PROCESSING_MAX_REDELIVERIES:-1}";
    static final String FIRST_DELAY = "${ENV=HOOKSTILE_PROCESSING_REDELIVERY_DELAY_MS:1000}";
    static final String LONGEST_DELAY = "${ENV=HOOKSTILE_PROCESSING_MAX_REDELIVERY_DELAY_MS:60000}";

    private static final Logger LOG = Logger.getLogger(EventConsumer.class.getName());

    @Inject
    ConsumerActivity activity;

    @Override
    public void onMessage(Message message) {
        activity.delivered(message);
        List<EventMessage.Received> events;
        try {
            events = EventMessage.receive(message);
        } catch (JMSException | RuntimeException unreadable) {
            unreadable(message, unreadable, "message");
            return;
        }
        try {
            if (processor.process(events)) {
                context.setRollbackOnly();
            }
        } catch (Exception e) {
            // Marking the transaction instead of throwing keeps the bean instance and the broker session alive.
            context.setRollbackOnly();
            EventMessage.Received first = events.get(0);
            LogFields.event(first.event()).and("events", events.size())
                    .log(LOG, Level.WARNING, e, () -> "Could not process or record " + describe(events)
                            + "; rolled back for redelivery");
        }
    }

    private static String describe(List<EventMessage.Received> events) {
        WebhookEvent event = events.get(0).event();
        // The broker's count of deliveries, the first included: what a log line calls its redelivery is one less.
        int redelivery = events.get(0).deliveryCount() - 1;
        String first = "event " + LogFields.name(event.source(), event.eventId())
                + (redelivery > 0 ? " (redelivery " + redelivery + ")" : "");
        return events.size() == 1 ? first : "a message of " + events.size() + " events from " + first;
    }
}
