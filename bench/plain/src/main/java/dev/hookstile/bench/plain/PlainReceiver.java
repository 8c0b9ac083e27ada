package dev.hookstile.bench.plain;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.annotation.sql.DataSourceDefinition;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.enterprise.concurrent.ManagedThreadFactory;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/** Creates the tables at start, then runs the workers until the application stops. */
@DataSourceDefinition(
        name = PlainReceiver.DATA_SOURCE,
        className = "org.postgresql.ds.PGSimpleDataSource",
        serverName = "${ENV=PGHOST}",
        databaseName = "${ENV=BENCH_PLAIN_DB}",
        user = "${ENV=PGUSER}",
        password = "${ENV=PGPASSWORD:}",
        // Plain JDBC transactions: the worker commits its own, nothing joins a JTA transaction.
        transactional = false,
        minPoolSize = 2,
        maxPoolSize = 32,
        properties = {
                // portNumber is an int in the annotation, so it cannot take ${...}; as a property it can.
                "portNumber=${ENV=PGPORT}",
                // The server's detail lines quote row values (sender data) into exception messages, which are logged.
                "logServerErrorDetail=false"
        })
@Startup
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN) // ready() reads a volatile: no lock to wait for
@TransactionManagement(TransactionManagementType.BEAN) // the DDL autocommits: no JTA transaction around it
public class PlainReceiver {

    public static final String DATA_SOURCE = "java:app/jdbc/plain";

    private static final List<String> SCHEMA = List.of(
            "CREATE TABLE IF NOT EXISTS plain_event (id bigserial PRIMARY KEY, source text NOT NULL,"
                    + " event_id text NOT NULL, event_type text NOT NULL, payload bytea NOT NULL,"
                    + " status text NOT NULL DEFAULT 'pending', received_at timestamptz NOT NULL DEFAULT now(),"
                    + " processed_at timestamptz, UNIQUE (source, event_id))",
            // Only the pending rows: the workers' scan stays small however many events were completed.
            "CREATE INDEX IF NOT EXISTS plain_event_pending ON plain_event (id) WHERE status = 'pending'",
            "CREATE TABLE IF NOT EXISTS bench_handled (source text NOT NULL, event_id text NOT NULL,"
                    + " handled_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (source, event_id))");

    @Resource(lookup = DATA_SOURCE)
    DataSource dataSource;

    // The container's factory, not new Thread(): the workers get the application's naming context and class loader.
    @Resource(lookup = "java:comp/DefaultManagedThreadFactory")
    ManagedThreadFactory threadFactory;

    private final List<Thread> workers = new ArrayList<>();
    private volatile boolean running;

    @PostConstruct
    void start() {
        try (var connection = dataSource.getConnection(); var statement = connection.createStatement()) {
            for (String ddl : SCHEMA) {
                statement.execute(ddl);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot create the plain receiver's tables", e);
        }
        running = true;
        int count = Integer.parseInt(env("BENCH_PLAIN_WORKERS", "4"));
        long pollMillis = Long.parseLong(env("BENCH_PLAIN_POLL_MS", "50"));
        for (int i = 0; i < count; i++) {
            Thread worker = threadFactory.newThread(new Worker(dataSource, new HandledRow(), pollMillis, () -> running));
            worker.setName("plain-worker-" + i);
            worker.start();
            workers.add(worker);
        }
    }

    /** Whether the tables exist and the workers run. */
    public boolean ready() {
        return running;
    }

    @PreDestroy
    void stop() {
        running = false;
        // Wakes a worker from its pause; one inside a statement sees the flag when it returns.
        workers.forEach(Thread::interrupt);
        try {
            for (Thread worker : workers) {
                worker.join(5_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value.trim();
    }
}
