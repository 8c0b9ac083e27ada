package dev.hookstile.it.support;

import java.lang.reflect.Field;
import java.util.Map;

/**
 * Makes the queue consumer that is delivering on this thread stop receiving, the way the consumer stalled after a
 * broker restart: its broker connection stays open and keeps the consumer registered with the broker, but no longer
 * hands what arrives for it to anyone. The broker goes on sending it messages up to its prefetch and then waits for
 * acknowledgements that never come; those messages are held for that consumer until its connection closes.
 *
 * <p>Reaches into the ActiveMQ resource adapter by reflection (it is not on the application's class path): the
 * adapter's record of the delivering session, its connection, and the connection's table of consumers.
 */
public final class ConsumerDetacher {

    private ConsumerDetacher() {
    }

    static void detachCurrentConsumer(ClassLoader adapterClasses) throws Exception {
        Class<?> inbound = Class.forName("org.apache.activemq.ra.InboundContextSupport", true, adapterClasses);
        Object context = inbound.getMethod("getActiveSessionAndProducer").invoke(null);
        Object session = context.getClass().getMethod("getSession").invoke(context);
        Object connection = session.getClass().getMethod("getConnection").invoke(session);
        Field field = field(connection.getClass(), "dispatchers");
        field.setAccessible(true);
        Map<?, ?> dispatchers = (Map<?, ?>) field.get(connection);
        if (!dispatchers.values().removeIf(d -> d.getClass().getSimpleName().equals("ActiveMQConnectionConsumer"))) {
            throw new IllegalStateException("no connection consumer on " + connection + ": " + dispatchers);
        }
    }

    private static Field field(Class<?> type, String name) throws NoSuchFieldException {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            try {
                return c.getDeclaredField(name);
            } catch (NoSuchFieldException e) {
                // the field is declared further up
            }
        }
        throw new NoSuchFieldException(name);
    }
}
