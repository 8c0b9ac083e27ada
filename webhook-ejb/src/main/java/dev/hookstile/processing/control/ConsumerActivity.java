package dev.hookstile.processing.control;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Queue;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * When each queue's consumer last received a message on this instance, and over which broker connection: what
 * {@code StalledConsumers} needs to tell a consumer that stopped receiving from one with nothing to receive, and to
 * get the resource adapter to connect it again.
 *
 * <p>Recording costs a map lookup and two field writes per delivery; it runs on the consumer's thread, in its
 * transaction, without a container call.
 */
@ApplicationScoped
public class ConsumerActivity {

    private static final Logger LOG = Logger.getLogger(ConsumerActivity.class.getName());

    /** A queue's consumer on this instance: its last delivery, and the connection of the resource adapter it came on. */
    static final class Consumer {
        volatile long lastDeliveryNanos;
        volatile Object connection;

        Consumer(long now) {
            this.lastDeliveryNanos = now;
        }
    }

    /** ActiveMQMessage.getConnection(), looked up once per message class. */
    private static final ClassValue<Method> CONNECTION_OF = new ClassValue<>() {
        @Override
        protected Method computeValue(Class<?> type) {
            try {
                return type.getMethod("getConnection");
            } catch (NoSuchMethodException e) {
                return null;
            }
        }
    };

    private final Map<String, Consumer> consumers = new ConcurrentHashMap<>();
    private final long startedNanos = System.nanoTime();
    private volatile boolean connectionUnreachable;

    /** Called by a consumer for every message it receives, whatever then becomes of it. */
    public void delivered(Message message) {
        String queue = queueOf(message);
        if (queue == null) {
            return;
        }
        long now = System.nanoTime();
        Consumer consumer = consumers.get(queue);
        if (consumer == null) {
            // Once per queue: after that, a delivery allocates nothing here.
            consumer = consumers.computeIfAbsent(queue, q -> new Consumer(now));
        }
        consumer.lastDeliveryNanos = now;
        Object connection = connectionOf(message);
        if (connection != null && connection != consumer.connection) {
            consumer.connection = connection;
        }
    }

    /** Nanoseconds (System.nanoTime) of the queue's last delivery on this instance, or of the start if none yet. */
    public long lastDeliveryNanos(String queue) {
        Consumer consumer = consumers.get(queue);
        return consumer == null ? startedNanos : consumer.lastDeliveryNanos;
    }

    /**
     * Reports the queue's consumer connection as failed to the resource adapter, which then does what it does when a
     * broker drops it: closes the consumer and the connection (the broker gives every message it had sent them to
     * the next consumer) and connects again. False when there is no connection to report on (no delivery yet since
     * the start) or the adapter's connection does not offer it.
     */
    public boolean reconnect(String queue, String reason) {
        Consumer consumer = consumers.get(queue);
        Object connection = consumer == null ? null : consumer.connection;
        if (connection == null) {
            return false;
        }
        try {
            // ActiveMQConnection.onAsyncException: the path of a transport failure, into the adapter's listener.
            Method failed = connection.getClass().getMethod("onAsyncException", Throwable.class);
            failed.invoke(connection, new JMSException(reason));
            return true;
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.log(Level.WARNING, "Could not report the consumer connection of " + queue + " as failed", e);
            return false;
        }
    }

    private static String queueOf(Message message) {
        try {
            Destination destination = message.getJMSDestination();
            return destination instanceof Queue queue ? queue.getQueueName() : null;
        } catch (JMSException e) {
            return null;
        }
    }

    /** The ActiveMQ connection a message came on ({@code ActiveMQMessage.getConnection()}), without linking to it. */
    private Object connectionOf(Message message) {
        Method getConnection = CONNECTION_OF.get(message.getClass());
        try {
            if (getConnection != null) {
                return getConnection.invoke(message);
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.log(Level.FINE, "No connection from " + message.getClass(), e);
        }
        if (!connectionUnreachable) {
            connectionUnreachable = true;
            LOG.warning("Messages of this broker do not name their connection: a stalled consumer will be reported"
                    + " by liveness but not reconnected");
        }
        return null;
    }
}
