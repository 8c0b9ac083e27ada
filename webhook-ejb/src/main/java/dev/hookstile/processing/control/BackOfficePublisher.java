package dev.hookstile.processing.control;

import dev.hookstile.api.WebhookEvent;
import dev.hookstile.source.BackOfficeDestination;
import dev.hookstile.trace.TraceParent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;

/**
 * Publishes a processed event to a back office's queue or topic, inside the try's transaction: the connection
 * factory is XA, so the message is sent exactly when the try commits (a try that rolls back, or a crash before the
 * commit, sends nothing; the next try sends it once). Persistent; the body as a {@code TextMessage} when it is UTF-8
 * (JSON and form bodies are), otherwise as a {@code BytesMessage}; properties {@code source}, {@code eventId},
 * {@code type}, {@code provider} and {@code traceparent} (the try's W3C trace context, so a consumer continues the
 * trace).
 */
@ApplicationScoped
class BackOfficePublisher {

    @Inject
    ConnectionFactory factory;

    /** @throws JMSException when the broker refuses it: a transient failure of the try, which rolls back */
    public void publish(WebhookEvent event, BackOfficeDestination target) throws JMSException {
        try (Connection connection = factory.createConnection();
             Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE)) {
            Destination destination = target.topic() ? session.createTopic(target.name())
                    : session.createQueue(target.name());
            String text = utf8OrNull(event.payload());
            Message message;
            if (text != null) {
                message = session.createTextMessage(text);
            } else {
                var bytes = session.createBytesMessage();
                bytes.writeBytes(event.payload());
                message = bytes;
            }
            message.setStringProperty("source", event.source());
            message.setStringProperty("eventId", event.eventId());
            message.setStringProperty("type", event.type());
            message.setStringProperty("provider", event.provider());
            if (event.traceParent() != null) {
                message.setStringProperty(TraceParent.HEADER, event.traceParent());
            }
            try (MessageProducer producer = session.createProducer(destination)) {
                producer.setDeliveryMode(DeliveryMode.PERSISTENT);
                producer.send(message);
            }
        }
    }

    private static String utf8OrNull(byte[] payload) {
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(payload)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
