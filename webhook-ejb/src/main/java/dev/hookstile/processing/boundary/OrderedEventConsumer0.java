package dev.hookstile.processing.boundary;

import dev.hookstile.platform.boundary.ContainerResources;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

/**
 * The consumer of {@value ContainerResources#ORDERED_QUEUE_0}: one session, so the events of a key are processed
 * one at a time in the order they were queued; a rolled-back message comes back before the ones behind it.
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = ContainerResources.RESOURCE_ADAPTER),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = ContainerResources.ORDERED_QUEUE_0),
        @ActivationConfigProperty(propertyName = "maxSessions", propertyValue = "1"),
        @ActivationConfigProperty(propertyName = "maximumRedeliveries", propertyValue = EventConsumer.MAX_REDELIVERIES),
        @ActivationConfigProperty(propertyName = "initialRedeliveryDelay", propertyValue = EventConsumer.FIRST_DELAY),
        @ActivationConfigProperty(propertyName = "useExponentialBackOff", propertyValue = "true"),
        @ActivationConfigProperty(propertyName = "backOffMultiplier", propertyValue = "2"),
        @ActivationConfigProperty(propertyName = "maximumRedeliveryDelay", propertyValue = EventConsumer.LONGEST_DELAY)
})
public class OrderedEventConsumer0 extends EventConsumer {
}
