package dev.hookstile.it.support;

import dev.hookstile.platform.boundary.ContainerResources;
import dev.hookstile.queue.boundary.EventMessage;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.util.Enumeration;
import java.util.List;

/**
 * Test-only: how many messages still waiting in the event queues carry this event (one being processed counts, as
 * it is not acknowledged yet). Zero after it was queued means a consumer has taken it and finished with it, which is
 * how a test waits for an event that leaves no record of its own (a duplicate).
 */
@Path("it/queued/{source}/{eventId}")
@RequestScoped
public class QueueProbe {

    private static final List<String> QUEUES = List.of(ContainerResources.QUEUE_NAME,
            ContainerResources.ORDERED_QUEUE_0, ContainerResources.ORDERED_QUEUE_1, ContainerResources.ORDERED_QUEUE_2,
            ContainerResources.ORDERED_QUEUE_3);

    @Inject
    ConnectionFactory factory;

    @GET
    @Produces(MediaType.TEXT_PLAIN)
    public String count(@PathParam("source") String source, @PathParam("eventId") String eventId)
            throws JMSException {
        int count = 0;
        try (Connection connection = factory.createConnection();
             Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE)) {
            connection.start();
            for (String queue : QUEUES) {
                try (QueueBrowser browser = session.createBrowser(session.createQueue(queue))) {
                    Enumeration<?> messages = browser.getEnumeration();
                    while (messages.hasMoreElements()) {
                        for (EventMessage.Received event : EventMessage.receive((Message) messages.nextElement())) {
                            if (event.event().source().equals(source) && event.event().eventId().equals(eventId)) {
                                count++;
                            }
                        }
                    }
                }
            }
        }
        return Integer.toString(count);
    }
}
