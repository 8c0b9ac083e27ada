package dev.hookstile.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Hookstile run the way users run it, with {@code ./hookstile}, on a data directory and a database that outlive
 * the process, so a test can kill it ({@code SIGKILL}) and start it again where it was.
 */
public final class ServerProcess implements AutoCloseable {

    private final Path work;
    private final Path war;
    private final int port;
    private final Map<String, String> environment = new HashMap<>();
    private Process process;
    private int starts;
    private boolean errorsApart;

    /**
     * @param work a directory of this test's own: the data directory and the logs go there
     * @param war  the archive to run (usually {@link Deployments#exportTo})
     */
    public ServerProcess(Path work, Path war) {
        this.work = work;
        this.war = war;
        this.port = freePort();
        String url = ItEnvironment.databaseUrl();
        if (!url.isEmpty()) {
            database(url);
        }
    }

    /** Connects the server to this database URL (a proxy, say) with the test database's user. */
    public ServerProcess database(String url) {
        environment.put("HOOKSTILE_DB_URL", url);
        environment.put("HOOKSTILE_DB_USER", System.getProperty("hookstile.test.db.user"));
        environment.put("HOOKSTILE_DB_PASSWORD", System.getProperty("hookstile.test.db.password"));
        return this;
    }

    /**
     * Standard error into a file of its own, {@code server-<n>.err.log}, beside standard output's
     * {@code server-<n>.log}: for a test of what each stream carries. Otherwise both go into one file.
     */
    public ServerProcess errorsApart() {
        errorsApart = true;
        return this;
    }

    /** What the last start wrote to standard output (and to standard error too, unless {@link #errorsApart}). */
    public Path output() {
        return work.resolve("server-" + starts + ".log");
    }

    /** What the last start wrote to standard error, with {@link #errorsApart}. */
    public Path errors() {
        return work.resolve("server-" + starts + ".err.log");
    }

    /** An environment variable for the next start. */
    public ServerProcess with(String name, String value) {
        environment.put(name, value);
        return this;
    }

    public Webhooks webhooks() {
        return new Webhooks(url());
    }

    public String url() {
        return "http://127.0.0.1:" + port + "/";
    }

    public int port() {
        return port;
    }

    /** Starts the server and waits until {@code /health/ready} answers 200. */
    public ServerProcess start() {
        launch();
        awaitReady();
        return this;
    }

    /**
     * Starts the server expecting it to refuse: waits until it ends by itself and answers its exit status, failing if
     * its port accepted a connection meanwhile (a refused start must never look like a server).
     */
    public int startExpectingExit() {
        launch();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (process.isAlive()) {
            if (System.nanoTime() > deadline) {
                kill();
                fail("the server did not end within 180 s; see " + output());
            }
            try (var socket = new java.net.Socket()) {
                socket.connect(new java.net.InetSocketAddress("127.0.0.1", port), 200);
                kill();
                fail("the port opened although the start was refused; see " + output());
            } catch (IOException notListening) {
                Webhooks.sleep(Duration.ofMillis(100));
            }
        }
        return process.exitValue();
    }

    /** {@code ./hookstile check} with this server's settings: its exit status and what it printed. */
    public Checked check() {
        var builder = new ProcessBuilder("bash", System.getProperty("hookstile.it.launcher"), "check")
                .redirectErrorStream(true);
        environment(builder.environment());
        try {
            Process check = builder.start();
            String printed = new String(check.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            if (!check.waitFor(60, TimeUnit.SECONDS)) {
                check.destroyForcibly();
                fail("./hookstile check did not end within 60 s: " + printed);
            }
            return new Checked(check.exitValue(), printed);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** What {@code ./hookstile check} answered. */
    public record Checked(int status, String output) {
    }

    private void environment(Map<String, String> env) {
        env.put("HOOKSTILE_PORT", String.valueOf(port));
        env.put("HOOKSTILE_DATA_DIR", work.resolve("data").toString());
        env.put("HOOKSTILE_WAR", war.toString());
        env.remove("HOOKSTILE_BROKER_URL");
        env.remove("HOOKSTILE_DB_URL");
        // Every line on the console, as the log file has it: the tests read the server's output, and a failure's
        // report shows it whole. A test of the quiet start sets its own level.
        env.put("HOOKSTILE_LOG_LEVEL", "info");
        // Each test runs a WAR of its own: an archive of its classes would be written at its first stop (about ten
        // seconds) and never used again. StartIT turns it on where it is the subject.
        env.put("HOOKSTILE_CDS", "off");
        env.putAll(environment);
    }

    private void launch() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("already running");
        }
        starts++;
        var builder = new ProcessBuilder("bash", System.getProperty("hookstile.it.launcher"))
                .redirectOutput(output().toFile());
        if (errorsApart) {
            builder.redirectError(errors().toFile());
        } else {
            builder.redirectErrorStream(true);
        }
        environment(builder.environment());
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code kill -9}: no shutdown hook, no flush, no goodbye to the broker or the database. */
    public void kill() {
        try {
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** {@code SIGTERM}, and whether it stopped within a minute. */
    public boolean stop() {
        process.destroy();
        try {
            return process.waitFor(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Writes the server's thread dump to {@code threads-<name>.txt} in the work directory: what a stall looks like
     * from inside, taken before the test's assertions end the run. Best effort, for the report only.
     */
    public Path dumpThreads(String name) {
        Path dump = work.resolve("threads-" + name + ".txt");
        if (!isAlive()) {
            return dump;
        }
        var jvms = new ArrayList<ProcessHandle>();
        jvms.add(process.toHandle());
        process.toHandle().descendants().forEach(jvms::add);
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        for (ProcessHandle jvm : jvms) {
            boolean java = jvm.info().command().map(command -> command.endsWith("java")).orElse(false);
            if (!java) {
                continue;
            }
            try {
                new ProcessBuilder(jcmd, String.valueOf(jvm.pid()), "Thread.print", "-l")
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(dump.toFile()))
                        .start().waitFor(60, TimeUnit.SECONDS);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return dump;
    }

    /** The server JVM's command line (the launcher replaces itself with it). */
    public java.util.List<String> commandLine() {
        return process.toHandle().info().arguments().map(java.util.List::of).orElse(java.util.List.of());
    }

    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    private void awaitReady() {
        Webhooks webhooks = webhooks();
        // A busy machine may need longer: -Dhookstile.it.ready-timeout-seconds.
        long patience = Long.getLong("hookstile.it.ready-timeout-seconds", 180);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(patience);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                fail("the server exited with " + process.exitValue() + " before it was ready; see "
                        + work.resolve("server-" + starts + ".log"));
            }
            try {
                if (webhooks.get("health/ready").statusCode() == 200) {
                    return;
                }
            } catch (RuntimeException notYetListening) {
                // keep polling
            }
            Webhooks.sleep(Duration.ofMillis(500));
        }
        // A server that never got ready is not the test's to stop (the exception escapes before the caller holds
        // it): stop it here, or it outlives the run.
        kill();
        fail("the server was not ready within " + patience + " s; see " + work.resolve("server-" + starts + ".log"));
    }

    @Override
    public void close() {
        if (isAlive()) {
            kill();
        }
    }

    static int freePort() {
        try (var socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
