package dev.hookstile.it;

import org.apache.activemq.broker.BrokerFilter;
import org.apache.activemq.broker.BrokerPlugin;
import org.apache.activemq.broker.BrokerService;
import org.apache.activemq.broker.ConnectionContext;
import org.apache.activemq.command.ConnectionInfo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * A standalone ActiveMQ Classic broker (the build's {@code activemq.version}) in a process of its own, as an operator
 * runs one, built from the Maven artifacts (Maven Central has no 6.x distribution): persistent in KahaDB, a TCP
 * connector on a free port. The fault tests point {@code HOOKSTILE_BROKER_URL} at it and kill it with
 * {@code kill -9}.
 */
public final class ExternalBroker implements AutoCloseable {

    private final Path work;
    private final int port = ServerProcess.freePort();
    private Process process;
    private int starts;
    private String user;
    private String password;

    public ExternalBroker(Path work) throws IOException {
        this.work = Files.createDirectories(work);
    }

    /** Only connections with this user and password are let in (ActiveMQ's simple authentication plugin). */
    public ExternalBroker requiring(String user, String password) {
        this.user = user;
        this.password = password;
        return this;
    }

    public String url() {
        return "tcp://127.0.0.1:" + port;
    }

    /** Starts the broker on its data directory (kept across restarts) and waits until it accepts connections. */
    public ExternalBroker start() {
        starts++;
        var builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", System.getProperty("java.class.path"), ExternalBroker.class.getName(),
                String.valueOf(port), work.resolve("data").toString(), user == null ? "" : user,
                password == null ? "" : password)
                .redirectErrorStream(true)
                .redirectOutput(work.resolve("broker-" + starts + ".log").toFile());
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                fail("the broker exited with " + process.exitValue() + "; see " + work);
            }
            try {
                new Socket("127.0.0.1", port).close();
                return this;
            } catch (IOException notYet) {
                Webhooks.sleep(Duration.ofMillis(200));
            }
        }
        return fail("the broker did not listen within 60 s; see " + work);
    }

    /** {@code kill -STOP}: the broker stops answering and keeps every socket open, as a hung or swapped-out one does. */
    public void freeze() {
        signal("STOP");
    }

    /** {@code kill -CONT}. */
    public void thaw() {
        signal("CONT");
    }

    private void signal(String signal) {
        try {
            int exit = new ProcessBuilder("kill", "-" + signal, String.valueOf(process.pid())).start().waitFor();
            if (exit != 0) {
                fail("kill -" + signal + " exited with " + exit);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** {@code kill -9}. */
    public void kill() {
        try {
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            kill();
        }
    }

    /**
     * Refuses every connection but this user's with this password, as ActiveMQ's simple authentication plugin does
     * (which needs activemq-jaas, not otherwise on the class path).
     */
    private static BrokerPlugin authentication(String user, String password) {
        return next -> new BrokerFilter(next) {
            @Override
            public void addConnection(ConnectionContext context, ConnectionInfo info) throws Exception {
                if (!user.equals(info.getUserName()) || !password.equals(info.getPassword())) {
                    throw new SecurityException("User name [" + info.getUserName() + "] or password is invalid.");
                }
                super.addConnection(context, info);
            }
        };
    }

    /** The broker process: {@code <port> <data directory> [<user> <password>]}. */
    public static void main(String[] args) throws Exception {
        var broker = new BrokerService();
        broker.setBrokerName("external");
        broker.setPersistent(true);
        broker.setDataDirectory(args[1]);
        broker.setUseJmx(false);
        broker.setUseShutdownHook(true);
        broker.addConnector("tcp://127.0.0.1:" + args[0]);
        if (args.length > 3 && !args[2].isEmpty()) {
            broker.setPlugins(new BrokerPlugin[] {authentication(args[2], args[3])});
        }
        broker.start();
        broker.waitUntilStopped();
    }
}
