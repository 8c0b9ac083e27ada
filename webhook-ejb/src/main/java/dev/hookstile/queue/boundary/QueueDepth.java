package dev.hookstile.queue.boundary;

import dev.hookstile.platform.boundary.ContainerResources;
import dev.hookstile.metrics.boundary.Gauge;
import dev.hookstile.metrics.boundary.Metrics;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.Timeout;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * How many messages wait in the broker's event queues (the event queue and the ordered ones), for the operator
 * overview: asked every {@value #EVERY_SECONDS} s by a timer, never on an operator's request, and kept. The question
 * goes to ActiveMQ's statistics plugin ({@code ActiveMQ.Statistics.Destination.<queue>}, which the embedded broker
 * has): it answers with the queue's size, counted by the broker, without browsing a message. An external broker
 * without the plugin does not answer: the depth is then unknown (absent), and asked again only every
 * {@value #AFTER_SILENCE_SECONDS} s. The question is not persistent and expires at once, so an unanswered one
 * leaves nothing behind.
 */
@Singleton
@Startup
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class QueueDepth {

    static final int EVERY_SECONDS = 10;
    static final int AFTER_SILENCE_SECONDS = 300;
    private static final long ANSWER_MILLIS = 1_000;
    /** Older than this, a depth is not shown: the broker stopped answering. */
    private static final long FRESH_MILLIS = 3L * EVERY_SECONDS * 1_000;
    private static final String STATISTICS = "ActiveMQ.Statistics.Destination.";
    private static final Logger LOG = Logger.getLogger(QueueDepth.class.getName());

    @Inject
    ConnectionFactory factory;

    @Resource
    TimerService timers;

    private volatile long depth = -1;
    private volatile long askedAt;
    private long silentUntil;

    @Inject
    Metrics metrics;

    /** The same count for the scrape; NaN while it is not known (an external broker without the plugin). */
    private Gauge waiting;

    @PostConstruct
    void schedule() {
        waiting = metrics.gauge("hookstile_queue_waiting_messages",
                "Messages waiting in the broker's event queues (each carries one or more events; NaN: not known)")
                .labels();
        waiting.set(Double.NaN);
        long every = EVERY_SECONDS * 1_000L;
        timers.createIntervalTimer(every, every, new TimerConfig(null, false));
    }

    /** The messages waiting in the event queues as last counted, or empty when not known. */
    public OptionalLong depth() {
        long known = depth;
        return known < 0 || System.currentTimeMillis() - askedAt > FRESH_MILLIS ? OptionalLong.empty()
                : OptionalLong.of(known);
    }

    @Timeout
    void ask() {
        long now = System.currentTimeMillis();
        if (now < silentUntil) {
            return;
        }
        List<String> queues = new ArrayList<>();
        queues.add(ContainerResources.QUEUE_NAME);
        queues.addAll(ContainerResources.ORDERED_QUEUE_NAMES);
        try (Connection connection = factory.createConnection();
             Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE)) {
            connection.start();
            TemporaryQueue replies = session.createTemporaryQueue();
            try (MessageConsumer answers = session.createConsumer(replies)) {
                long total = 0;
                for (String queue : queues) {
                    OptionalLong size = size(session, replies, answers, queue);
                    if (size.isEmpty()) {
                        depth = -1;
                        waiting.set(Double.NaN);
                        silentUntil = now + AFTER_SILENCE_SECONDS * 1_000L;
                        LOG.fine("The broker does not answer ActiveMQ's statistics requests: queue depth unknown");
                        return;
                    }
                    total += size.getAsLong();
                }
                depth = total;
                waiting.set(total);
                askedAt = now;
            } finally {
                replies.delete();
            }
        } catch (JMSException | RuntimeException e) {
            depth = -1;
            waiting.set(Double.NaN);
            LOG.log(Level.FINE, "Could not ask the broker for its queue depth", e);
        }
    }

    private static OptionalLong size(Session session, TemporaryQueue replies, MessageConsumer answers, String queue)
            throws JMSException {
        try (MessageProducer producer = session.createProducer(session.createQueue(STATISTICS + queue))) {
            producer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            producer.setTimeToLive(ANSWER_MILLIS);
            Message question = session.createMessage();
            question.setJMSReplyTo(replies);
            producer.send(question);
        }
        Message answer = answers.receive(ANSWER_MILLIS);
        if (answer instanceof MapMessage map && map.itemExists("size")) {
            return OptionalLong.of(map.getLong("size"));
        }
        return OptionalLong.empty();
    }
}
