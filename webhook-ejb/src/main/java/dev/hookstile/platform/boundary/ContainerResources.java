package dev.hookstile.platform.boundary;

import dev.hookstile.platform.control.ConfiguredDataSource;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.annotation.sql.DataSourceDefinition;
import jakarta.annotation.sql.DataSourceDefinitions;
import jakarta.ejb.Singleton;
import jakarta.enterprise.concurrent.ContextService;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Qualifier;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Queue;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.resource.AdministeredObjectDefinition;
import jakarta.resource.ConnectionFactoryDefinition;
import jakarta.resource.ConnectionFactoryDefinitions;
import jakarta.resource.spi.TransactionSupport;
import org.eclipse.microprofile.config.ConfigProvider;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.util.List;
import javax.sql.DataSource;

/**
 * Every container resource the application uses, defined and named in one place, the same way in both packagings
 * (the WAR on Payara Micro, the EAR on Payara Server): the two database pools, the two connection factories of the
 * ActiveMQ resource adapter, and the event queue.
 *
 * <p>CDI beans receive them, and the persistence context, from the producers here rather than through
 * {@code @Resource} and {@code @PersistenceContext} fields of their own. Both failed in the EAR on Payara Server:
 * Weld resolves a CDI bean's {@code @Resource} while the application deploys, before the EJB module had defined
 * these {@code java:app} resources ({@code Lookup failed for 'java:app/jdbc/hookstile-lookup'}, the deployment
 * refused); and a CDI bean's persistence context finds its unit through the module of the first call that uses
 * it, so an operator request from the web module could not find the EJB module's unit ({@code Unable to retrieve
 * EntityManagerFactory for unitName hookstile}). This bean is an EJB: injected once the application is up, and its
 * persistence context bound to the unit in its own module before anyone uses it.
 */
@DataSourceDefinitions({
        @DataSourceDefinition(
                name = ContainerResources.DATA_SOURCE,
                className = "dev.hookstile.platform.control.ConfiguredDataSource",
                minPoolSize = 2,
                maxPoolSize = 32,
                maxIdleTime = 300,
                properties = {
                        ContainerResources.VALIDATED, ContainerResources.VALIDATED_AT_MOST_EVERY_2_S,
                        ContainerResources.VALIDATED_BY_DRIVER, ContainerResources.VALIDATION_CLASS,
                        ContainerResources.ALL_REPLACED_ON_FAILURE
                }),
        // Ingest's duplicate lookup, apart: every wait on it is bounded by about a second, where the processing
        // pool's bound (the socket timeout) must outlast a handler's statements. The pool validates with
        // isValid(0), which waits as long as the socket timeout allows: on the shared pool a request that drew a
        // connection due for validation as the database stopped answering waited the full 30 s (the partition
        // fault test). Here, creating a connection, validating it, waiting for a free one, and reading from it each
        // give up within a second, and the lookup is then skipped (the consumer's claim still deduplicates).
        // Not transactional: the lookup reads outside any transaction, on a thread of the application's own; Payara
        // keeps a transactional connection's record per such thread in its transaction manager, and never removes
        // it, which kept every earlier deployment after a redeploy (RedeployIT).
        @DataSourceDefinition(
                name = ContainerResources.LOOKUP_DATA_SOURCE,
                className = "dev.hookstile.platform.control.ConfiguredDataSource",
                transactional = false,
                minPoolSize = 2,
                maxPoolSize = 16,
                maxIdleTime = 300,
                loginTimeout = 1,
                properties = {
                        "socketTimeoutSeconds=1",
                        "fish.payara.max-wait-time-in-millis=1000",
                        ContainerResources.VALIDATED, ContainerResources.VALIDATED_AT_MOST_EVERY_2_S,
                        ContainerResources.VALIDATED_BY_DRIVER, ContainerResources.VALIDATION_CLASS,
                        ContainerResources.ALL_REPLACED_ON_FAILURE
                })
})
@ConnectionFactoryDefinitions({
        @ConnectionFactoryDefinition(
                name = ContainerResources.CONNECTION_FACTORY,
                interfaceName = "jakarta.jms.ConnectionFactory",
                resourceAdapter = ContainerResources.RESOURCE_ADAPTER,
                transactionSupport = TransactionSupport.TransactionSupportLevel.XATransaction,
                minPoolSize = 2,
                maxPoolSize = 64),
        // Ingest's senders, on threads of the application's own and outside any transaction: for the same reason as the
        // lookup's pool, a connection factory without transactions.
        @ConnectionFactoryDefinition(
                name = ContainerResources.HAND_OFF_CONNECTION_FACTORY,
                interfaceName = "jakarta.jms.ConnectionFactory",
                resourceAdapter = ContainerResources.RESOURCE_ADAPTER,
                transactionSupport = TransactionSupport.TransactionSupportLevel.NoTransaction,
                minPoolSize = 1,
                maxPoolSize = 16)
})
@AdministeredObjectDefinition(
        name = ContainerResources.QUEUE,
        interfaceName = "jakarta.jms.Queue",
        className = "org.apache.activemq.command.ActiveMQQueue",
        resourceAdapter = ContainerResources.RESOURCE_ADAPTER,
        properties = "PhysicalName=" + ContainerResources.QUEUE_NAME)
@Singleton
public class ContainerResources {

    /**
     * The name the ActiveMQ Classic resource adapter is deployed under, before the application. Without its version,
     * which only the build knows (the launcher and the Payara Server script deploy the RAR the build copied).
     */
    public static final String RESOURCE_ADAPTER = "activemq-rar";
    /** The broker's name for the event queue: the MDB, the health check and back offices use it. */
    public static final String QUEUE_NAME = "hookstile.events";
    /**
     * The queues of events with an order key ({@code _ORDER_KEY}), each consumed by one session at a time: a key
     * always goes to the same one, so events with one key are processed in the order they were queued, and events
     * with keys on different queues in parallel. Their messages form one JMS message group per queue, so with several
     * instances the broker still gives each queue to one consumer at a time.
     */
    public static final String ORDERED_QUEUE_0 = "hookstile.ordered.0";
    public static final String ORDERED_QUEUE_1 = "hookstile.ordered.1";
    public static final String ORDERED_QUEUE_2 = "hookstile.ordered.2";
    public static final String ORDERED_QUEUE_3 = "hookstile.ordered.3";
    public static final List<String> ORDERED_QUEUE_NAMES =
            List.of(ORDERED_QUEUE_0, ORDERED_QUEUE_1, ORDERED_QUEUE_2, ORDERED_QUEUE_3);
    public static final String DATA_SOURCE = "java:app/jdbc/hookstile";
    /** The same database, pooled apart for ingest's duplicate lookup, with every wait bounded by about a second. */
    public static final String LOOKUP_DATA_SOURCE = "java:app/jdbc/hookstile-lookup";
    public static final String CONNECTION_FACTORY = "java:app/jms/hookstile/ConnectionFactory";
    /** The same broker, for ingest's hand-off: no transactions (see its definition). */
    public static final String HAND_OFF_CONNECTION_FACTORY = "java:app/jms/hookstile/HandOffConnectionFactory";
    public static final String QUEUE = "java:app/jms/hookstile/EventQueue";

    // Both pools: a pooled connection that died with a database restart is replaced before use, instead of costing a
    // failed delivery. At most once per 2 s per connection: validating on every allocation cost a round trip per
    // request and per try, a tenth of the ingest and consumer CPU (profiled).
    static final String VALIDATED = "fish.payara.is-connection-validation-required=true";
    static final String VALIDATED_AT_MOST_EVERY_2_S = "fish.payara.validate-atmost-once-period-in-seconds=2";
    static final String VALIDATED_BY_DRIVER = "fish.payara.connection-validation-method=custom-validation";
    static final String VALIDATION_CLASS =
            "fish.payara.validation-classname=org.glassfish.api.jdbc.validation.JDBC40ConnectionValidation";
    static final String ALL_REPLACED_ON_FAILURE = "fish.payara.fail-all-connections=true";

    /** The pool of the processing transactions, the operator API and the health check. */
    @Qualifier
    @Retention(RetentionPolicy.RUNTIME)
    public @interface Database {
    }

    /** The pool of ingest's duplicate lookup. */
    @Qualifier
    @Retention(RetentionPolicy.RUNTIME)
    public @interface LookupDatabase {
    }

    /** The connection factory of ingest's hand-off, without transactions. */
    @Qualifier
    @Retention(RetentionPolicy.RUNTIME)
    public @interface HandOff {
    }

    /** The persistence unit of {@code META-INF/persistence.xml}; the statements of every component run through it. */
    public static final String PERSISTENCE_UNIT = "hookstile";

    @PersistenceContext(unitName = PERSISTENCE_UNIT)
    EntityManager entityManager;

    @Resource(lookup = DATA_SOURCE)
    DataSource database;

    @Resource(lookup = LOOKUP_DATA_SOURCE)
    DataSource lookupDatabase;

    @Resource(lookup = CONNECTION_FACTORY)
    ConnectionFactory connectionFactory;

    @Resource(lookup = HAND_OFF_CONNECTION_FACTORY)
    ConnectionFactory handOffConnectionFactory;

    @Resource(lookup = QUEUE)
    Queue queue;

    /**
     * The platform's default, for threads of the application's own that need its context (ingest's senders):
     * {@link OwnThreads#withContext}, not a managed thread factory's threads, which keep the context when they end.
     */
    @Resource(lookup = "java:comp/DefaultContextService")
    ContextService context;

    /** Whether the database is the embedded one: a single process, and SQL without PostgreSQL's locking clauses. */
    public static boolean embeddedDatabase() {
        return ConfiguredDataSource.embedded(ConfigProvider.getConfig(ContainerResources.class.getClassLoader()));
    }

    /** Binds the transaction-scoped persistence context to its unit here, in this module, once. */
    @PostConstruct
    void bindPersistenceUnit() {
        entityManager.getEntityManagerFactory();
    }

    /** The transaction-scoped persistence context: the caller's JTA transaction decides what commits. */
    @Produces
    public EntityManager entityManager() {
        return entityManager;
    }

    @Produces
    @Database
    public DataSource database() {
        return database;
    }

    @Produces
    @LookupDatabase
    public DataSource lookupDatabase() {
        return lookupDatabase;
    }

    @Produces
    public ConnectionFactory connectionFactory() {
        return connectionFactory;
    }

    @Produces
    @HandOff
    public ConnectionFactory handOffConnectionFactory() {
        return handOffConnectionFactory;
    }

    @Produces
    public Queue queue() {
        return queue;
    }

    @Produces
    public ContextService context() {
        return context;
    }
}
