package dev.hookstile.it.support;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * Test-only: takes what a back-office queue holds for one event, as a back office would consume it, waiting up to
 * {@code waitMs} for the first message and then taking any further copies.
 */
@Path("it/backoffice/{queue}/{eventId}")
@RequestScoped
public class BackOfficeProbe {

    @Inject
    ConnectionFactory factory;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public String take(@PathParam("queue") String queue, @PathParam("eventId") String eventId,
                       @QueryParam("waitMs") long waitMs) throws JMSException {
        var messages = Json.createArrayBuilder();
        try (Connection connection = factory.createConnection();
             Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
             MessageConsumer consumer = session.createConsumer(session.createQueue(queue),
                     "eventId = '" + eventId.replace("'", "''") + "'")) {
            connection.start();
            Message message = consumer.receive(Math.max(1, waitMs));
            while (message != null) {
                String body = message instanceof TextMessage text ? text.getText()
                        : "bytes:" + ((BytesMessage) message).getBodyLength();
                messages.add(Json.createObjectBuilder()
                        .add("source", message.getStringProperty("source"))
                        .add("eventId", message.getStringProperty("eventId"))
                        .add("type", message.getStringProperty("type"))
                        .add("provider", message.getStringProperty("provider"))
                        .add("traceparent", String.valueOf(message.getStringProperty("traceparent")))
                        .add("body", body));
                message = consumer.receive(500);
            }
        }
        return messages.build().toString();
    }
}
