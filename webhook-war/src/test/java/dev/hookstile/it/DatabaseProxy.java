package dev.hookstile.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP proxy between the server and PostgreSQL that a test can break the ways a database goes away:
 * {@link #stop()} closes every connection and refuses new ones (PostgreSQL stopped or restarted);
 * {@link #partition()} stops forwarding while keeping every socket open and accepting new ones (a network
 * partition, a failover in progress: nothing answers and nothing says so); {@link #restore()} heals either.
 */
public final class DatabaseProxy implements AutoCloseable {

    private enum Mode { FORWARD, STOPPED, PARTITIONED }

    private final ServerSocket listener;
    private final String upstreamHost;
    private final int upstreamPort;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final Object gate = new Object();
    private volatile Mode mode = Mode.FORWARD;

    /** @param jdbcUrl the database to stand in front of, {@code jdbc:postgresql://host:port/db?...} */
    public DatabaseProxy(String jdbcUrl) {
        URI target = URI.create(jdbcUrl.substring("jdbc:".length()));
        this.upstreamHost = target.getHost();
        this.upstreamPort = target.getPort() < 0 ? 5432 : target.getPort();
        try {
            listener = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Thread acceptor = new Thread(this::accept, "db-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** The same JDBC URL, through this proxy. */
    public String url(String jdbcUrl) {
        return jdbcUrl.replaceFirst("//[^/]+/", "//127.0.0.1:" + listener.getLocalPort() + "/");
    }

    public void stop() {
        mode = Mode.STOPPED;
        closeAll();
    }

    public void partition() {
        mode = Mode.PARTITIONED;
    }

    public void restore() {
        synchronized (gate) {
            mode = Mode.FORWARD;
            gate.notifyAll();
        }
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                if (mode == Mode.STOPPED) {
                    client.close();
                    continue;
                }
                sockets.add(client);
                Thread connector = new Thread(() -> connect(client), "db-proxy-connect");
                connector.setDaemon(true);
                connector.start();
            } catch (IOException e) {
                // closed, or one failed accept: carry on while open
            }
        }
    }

    private void connect(Socket client) {
        try {
            awaitForwarding();
            Socket server = new Socket(upstreamHost, upstreamPort);
            sockets.add(server);
            pump(client, server);
            pump(server, client);
        } catch (IOException | InterruptedException e) {
            close(client);
        }
    }

    private void pump(Socket from, Socket to) {
        Thread pump = new Thread(() -> {
            byte[] buffer = new byte[16384];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    awaitForwarding();
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // one side went away
            } finally {
                close(from);
                close(to);
            }
        }, "db-proxy-pump");
        pump.setDaemon(true);
        pump.start();
    }

    private void awaitForwarding() throws InterruptedException, IOException {
        synchronized (gate) {
            while (mode == Mode.PARTITIONED) {
                gate.wait();
            }
        }
        if (mode == Mode.STOPPED) {
            throw new IOException("stopped");
        }
    }

    private void closeAll() {
        for (Socket socket : sockets) {
            close(socket);
        }
    }

    private void close(Socket socket) {
        sockets.remove(socket);
        try {
            socket.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    @Override
    public void close() {
        restore();
        try {
            listener.close();
        } catch (IOException ignored) {
            // already closed
        }
        closeAll();
    }
}
