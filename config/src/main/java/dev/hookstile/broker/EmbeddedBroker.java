package dev.hookstile.broker;

import java.io.File;
import java.net.URI;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;

import org.apache.activemq.broker.BrokerFactoryHandler;
import org.apache.activemq.broker.BrokerPlugin;
import org.apache.activemq.broker.BrokerService;
import org.apache.activemq.plugin.StatisticsBrokerPlugin;
import org.apache.activemq.store.kahadb.KahaDBPersistenceAdapter;
import org.apache.activemq.store.kahadb.KahaDBStore;
import org.apache.activemq.usage.SystemUsage;

/**
 * The broker the resource adapter embeds when no external one is configured: {@code BrokerXmlConfig=hookstile:<dir>}.
 *
 * <p>Built in code rather than from a Spring broker XML ({@code xbean:file:...}) for the start time: on Payara Micro
 * every {@code META-INF/services} lookup that misses the API class loader merges every module's manifest again, and
 * XBean's namespace handler makes one such lookup per XML element, which allocated 1.2 GB and cost about a second of
 * every start (docs/benchmarks.md, "Decisions the hot path rests on", 2acdc9f). The adapter is shipped without
 * Spring and XBean as a result.
 *
 * <p>The settings are what the broker XML held: messages persistent in KahaDB under {@code <dir>/kahadb}, a send
 * synced to the journal before it is confirmed (KahaDB's default), bounded memory and store with a full store
 * failing the send at once (ingest answers 503) instead of blocking it, no JMX, no advisories (every pooled producer's
 * creation and close would publish one nobody reads), no network connectors: the broker is reached in-VM only. The
 * statistics plugin answers the operator overview's question how many messages wait.
 *
 * <p>The store's two threads that live as long as the broker ({@code ConcurrentQueueStoreAndDispatch} and
 * {@code ConcurrentTopicStoreAndDispatch}) are started with the store, not at the first send (see {@link Store}).
 */
public class EmbeddedBroker implements BrokerFactoryHandler {

    static final String SCHEME = "hookstile";
    static final long MEMORY_LIMIT = 128L << 20;
    static final long STORE_LIMIT = 8L << 30;
    static final long TEMP_LIMIT = 1L << 30;
    static final int JOURNAL_FILE_LENGTH = 32 << 20;

    @Override
    public BrokerService createBroker(URI uri) throws Exception {
        File directory = directory(uri);
        BrokerService broker = new BrokerService();
        broker.setBrokerName("localhost");
        broker.setUseJmx(false);
        broker.setPersistent(true);
        broker.setSchedulerSupport(false);
        broker.setAdvisorySupport(false);
        broker.setDataDirectoryFile(directory);
        // Answers a request sent to ActiveMQ.Statistics.Destination.<queue> with the queue's size: how the operator
        // overview learns how many messages wait, without JMX and without browsing them (QueueDepth).
        broker.setPlugins(new BrokerPlugin[]{new StatisticsBrokerPlugin()});

        KahaDBPersistenceAdapter store = new KahaDBPersistenceAdapter() {
            @Override
            protected KahaDBStore createStore() {
                return new Store();
            }
        };
        store.setDirectory(new File(directory, "kahadb"));
        store.setJournalMaxFileLength(JOURNAL_FILE_LENGTH);
        broker.setPersistenceAdapter(store);

        SystemUsage usage = broker.getSystemUsage();
        usage.setSendFailIfNoSpace(true);
        usage.getMemoryUsage().setLimit(MEMORY_LIMIT);
        usage.getStoreUsage().setLimit(STORE_LIMIT);
        usage.getTempUsage().setLimit(TEMP_LIMIT);
        return broker;
    }

    /**
     * KahaDB's store, its two executors' threads started with it. KahaDB starts them at the first send that needs
     * them, and a new thread takes the context class loader of the thread that starts it: the first sender's, which on
     * Payara Server is an application's (ingest's hand-off). The broker outlives the application (it lives in the
     * resource adapter), so that thread kept the first deployment of the application, all its classes, for the life of
     * the server, however often it was redeployed (RedeployIT). Started here, they take the resource adapter's.
     */
    static final class Store extends KahaDBStore {

        @Override
        public void doStart() throws Exception {
            super.doStart();
            for (ExecutorService executor : new ExecutorService[]{queueExecutor, topicExecutor}) {
                if (executor instanceof ThreadPoolExecutor pool) {
                    pool.prestartAllCoreThreads();
                }
            }
        }
    }

    static File directory(URI uri) {
        String path = uri.getSchemeSpecificPart();
        if (!SCHEME.equals(uri.getScheme()) || path == null || !Path.of(path).isAbsolute()) {
            throw new IllegalArgumentException(
                    "the embedded broker wants hookstile:<absolute directory>, not " + uri);
        }
        return Path.of(path).toFile();
    }
}
