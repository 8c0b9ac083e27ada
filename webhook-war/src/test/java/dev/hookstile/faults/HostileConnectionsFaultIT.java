package dev.hookstile.faults;

import dev.hookstile.it.Deployments;
import dev.hookstile.it.ItEnvironment;
import dev.hookstile.it.Ledger;
import dev.hookstile.it.ServerProcess;
import dev.hookstile.it.Traffic;
import dev.hookstile.it.Webhooks;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Denial of service without a secret, as the issue tried it against {@code ./hookstile}: first 400 connections that
 * each declare a 1 MiB body and send nothing (reopened as soon as the server closes one), then 300 connections
 * offering a protocol upgrade ({@code h2c} and {@code websocket}) whose body stalls after one byte, each held for
 * 30 s (not reopened: a flood of new connections is another attack), then 300 console sign-ins
 * ({@code POST /api/session}, JSON, this server's own {@code Origin}: all a client without a secret can forge) that
 * declare a 4 KiB body and stall after five bytes, reopened as soon as the server cuts one off. Throughout, a
 * well-behaved sender posting signed events one at a time is answered {@code 2xx} (or a fast {@code 503}) within 2 s,
 * the operator API and liveness answer, and the heap never runs out.
 */
class HostileConnectionsFaultIT {

    private static final int DECLARED_ONLY = 400;
    private static final int STALLED_UPGRADES = 300;
    private static final int STALLED_SIGN_INS = 300;
    private static final Duration PHASE = Duration.ofSeconds(30);
    private static final long PROMPT_MILLIS = 2_000;
    private static final Duration WARM_UP = Duration.ofSeconds(10);

    private Path work;

    @BeforeEach
    void postgresOnly() throws Exception {
        work = ItEnvironment.faultWorkDirectory();
    }

    @Test
    void connectionsThatDeclareBodiesAndSendNothingDoNotTakeTheReceiverOffTheAir() throws Exception {
        String prefix = "hostile-" + UUID.randomUUID() + "-";
        // The body deadline as the README ships it, not the integration tests' 3 s.
        try (var server = new ServerProcess(work, Deployments.exportTo(work.resolve("hookstile-it.war")))
                .with("HOOKSTILE_INGEST_BODY_TIMEOUT_SECONDS", "10").start()) {
            Webhooks webhooks = server.webhooks();
            var watch = new Watch(server);
            watch.start();
            Traffic traffic = Traffic.start(webhooks, prefix, 1);
            String declaredOnly = "POST /webhooks/it HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 1048576\r\n\r\n";
            String h2c = "POST /webhooks/it HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                    + "Upgrade: h2c\r\nHTTP2-Settings: AAEAAEAAAAIAAAABAAMAAABkAAQBAAAAAAUAAEAA\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{";
            String websocket = "POST /webhooks/it HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\n"
                    + "Upgrade: websocket\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{";
            // Everything a sign-in must bring to be read at all, the Origin included: a raw client forges it freely.
            String signIn = "POST /api/session HTTP/1.1\r\nHost: 127.0.0.1:" + server.port() + "\r\n"
                    + "Origin: http://127.0.0.1:" + server.port() + "\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 4096\r\n\r\n{\"tok";
            Hostile first;
            Hostile second;
            Hostile third;
            long[] phases = new long[4];
            try (traffic) {
                // Warm up first: the first answers after a cold start take seconds with nobody attacking.
                Webhooks.sleep(WARM_UP);
                phases[0] = traffic.elapsedMillis();
                try (var hostile = new Hostile(server.port(), List.of(declaredOnly), DECLARED_ONLY, true)) {
                    first = hostile;
                    Webhooks.sleep(PHASE);
                }
                phases[1] = traffic.elapsedMillis();
                try (var hostile = new Hostile(server.port(), List.of(h2c, websocket), STALLED_UPGRADES, false)) {
                    second = hostile;
                    Webhooks.sleep(PHASE);
                }
                phases[2] = traffic.elapsedMillis();
                try (var hostile = new Hostile(server.port(), List.of(signIn), STALLED_SIGN_INS, true)) {
                    third = hostile;
                    Webhooks.sleep(PHASE);
                }
                phases[3] = traffic.elapsedMillis();
                Webhooks.sleep(Duration.ofSeconds(2));
            } finally {
                watch.stop();
            }
            List<Traffic.Sample> samples = traffic.samples().stream()
                    .filter(s -> s.sentAtMillis() >= phases[0]).toList();
            long timeouts = webhooks.rejections("body-timeout");
            long full = webhooks.rejections("body-buffers-full");
            List<Traffic.Sample> late = samples.stream()
                    .filter(s -> s.latencyMillis() >= PROMPT_MILLIS
                            || !(s.status() / 100 == 2 || s.status() == 503))
                    .toList();
            long acked = samples.stream().filter(s -> s.status() / 100 == 2).count();
            long refused503 = samples.stream().filter(s -> s.status() == 503).count();
            long p99 = Traffic.percentile(samples, 99);
            long lateDeclared = late.stream().filter(s -> s.sentAtMillis() >= phases[0] && s.sentAtMillis() < phases[1])
                    .count();
            long lateUpgrades = late.stream().filter(s -> s.sentAtMillis() >= phases[1] && s.sentAtMillis() < phases[2])
                    .count();
            long lateSignIns = late.stream().filter(s -> s.sentAtMillis() >= phases[2] && s.sentAtMillis() < phases[3])
                    .count();
            long signInTimeouts = operatorBodyTimeouts(server);
            long max = samples.stream().mapToLong(Traffic.Sample::latencyMillis).max().orElse(0);
            String log = serverLog();
            boolean outOfMemory = log.contains("OutOfMemoryError");
            Ledger.Verdict verdict = new Ledger().awaitSettled(traffic.answers(), prefix, Duration.ofSeconds(60));
            String notes = "well-behaved, from the first attack on: " + samples.size() + " sent one at a time, " + acked + " 2xx, " + refused503
                    + " 503, " + late.size() + " late or failed (" + lateDeclared + " while bodies were declared, "
                    + lateUpgrades + " while upgrades stalled, " + lateSignIns + " while sign-ins stalled; p99 " + p99
                    + " ms, slowest " + max + " ms); operator "
                    + "API " + watch.operatorFailures + "/" + watch.operatorCalls + " failed, liveness "
                    + watch.livenessFailures + "/" + watch.livenessCalls + " not UP; hostile connections opened "
                    + first.opened + " + " + second.opened + " + " + third.opened + ", cut off by the server "
                    + first.cutOff + " + " + second.cutOff + " + " + third.cutOff + "; server: " + timeouts
                    + " body-timeout, " + full + " body-buffers-full, " + signInTimeouts + " operator body-timeout"
                    + (outOfMemory ? "; **OutOfMemoryError** in the log" : "; no OutOfMemoryError");
            Ledger.report(DECLARED_ONLY + " connections declaring 1 MiB, then " + STALLED_UPGRADES
                    + " stalled upgrade bodies, then " + STALLED_SIGN_INS + " stalled sign-ins, 30 s each", verdict,
                    notes);

            assertFalse(outOfMemory, "the heap never ran out; see " + work.resolve("server-1.log"));
            assertTrue(samples.size() > 20, "the well-behaved sender got through at all: " + notes);
            assertTrue(late.isEmpty(), "every well-behaved request answered 2xx or 503 within "
                    + PROMPT_MILLIS + " ms: " + notes + "; first late: " + late.stream().limit(5).toList());
            assertTrue(acked > 0, "and some were accepted: " + notes);
            assertEquals(0, watch.operatorFailures.get(), "the operator API answered throughout: " + notes);
            assertEquals(0, watch.livenessFailures.get(), "liveness stayed UP throughout: " + notes);
            assertTrue(server.webhooks().server().get("health/live").statusCode() == 200, "and is UP after");
            assertTrue(signInTimeouts > 0, "the stalled sign-ins were cut off at the body deadline: " + notes);
            assertTrue(verdict.exactlyOnce(), verdict.toString());
        }
    }

    /** {@code hookstile_operator_bodies_refused_total{reason="body-timeout"}}: sign-ins cut off at the deadline. */
    private static long operatorBodyTimeouts(ServerProcess server) {
        return server.webhooks().get("metrics").body().lines()
                .filter(line -> line.startsWith("hookstile_operator_bodies_refused_total{")
                        && line.contains("reason=\"body-timeout\""))
                .mapToLong(line -> (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .findFirst().orElse(0);
    }

    private String serverLog() throws IOException {
        var text = new StringBuilder();
        try (var logs = Files.list(work)) {
            for (Path log : logs.filter(p -> p.getFileName().toString().startsWith("server-")).toList()) {
                text.append(Files.readString(log, StandardCharsets.ISO_8859_1));
            }
        }
        return text.toString();
    }

    /** Polls the operator API and liveness every second, each on a client of its own, and counts what failed. */
    private static final class Watch {

        private final Webhooks operator;
        private final Webhooks health;
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final AtomicInteger operatorCalls = new AtomicInteger();
        private final AtomicInteger operatorFailures = new AtomicInteger();
        private final AtomicInteger livenessCalls = new AtomicInteger();
        private final AtomicInteger livenessFailures = new AtomicInteger();
        private final List<Thread> threads = new ArrayList<>();

        Watch(ServerProcess server) {
            operator = new Webhooks(server.url());
            health = new Webhooks(server.url());
        }

        void start() {
            threads.add(poll("watch-operator", operatorCalls, operatorFailures,
                    () -> operator.send(operator.operator("api/sources").timeout(Duration.ofSeconds(5)).GET())
                            .statusCode() == 200));
            threads.add(poll("watch-liveness", livenessCalls, livenessFailures, () -> {
                HttpResponse<String> live = health.send(java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create(health.base() + "health/live")).timeout(Duration.ofSeconds(5)).GET());
                return live.statusCode() == 200 && live.body().contains("UP");
            }));
        }

        private Thread poll(String name, AtomicInteger calls, AtomicInteger failures,
                            java.util.function.BooleanSupplier call) {
            Thread thread = new Thread(() -> {
                while (running.get()) {
                    calls.incrementAndGet();
                    boolean ok;
                    try {
                        ok = call.getAsBoolean();
                    } catch (RuntimeException e) {
                        ok = false;
                    }
                    if (!ok) {
                        failures.incrementAndGet();
                    }
                    try {
                        Thread.sleep(1_000);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, name);
            thread.setDaemon(true);
            thread.start();
            return thread;
        }

        void stop() throws InterruptedException {
            running.set(false);
            for (Thread thread : threads) {
                thread.join(10_000);
            }
        }
    }

    /**
     * {@code count} connections that each send one of the request heads and then nothing more, held open by one
     * thread with a selector; with {@code reopen}, a connection the server answers or closes is replaced at once.
     */
    private static final class Hostile implements AutoCloseable {

        private final InetSocketAddress address;
        private final List<byte[]> heads = new ArrayList<>();
        private final Selector selector;
        private final Thread thread;
        private final List<SocketChannel> channels = Collections.synchronizedList(new ArrayList<>());
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final AtomicInteger opened = new AtomicInteger();
        private final AtomicInteger cutOff = new AtomicInteger();
        private int next;

        private final boolean reopen;

        Hostile(int port, List<String> heads, int count, boolean reopen) throws IOException {
            this.reopen = reopen;
            this.address = new InetSocketAddress("127.0.0.1", port);
            heads.forEach(head -> this.heads.add(head.getBytes(StandardCharsets.US_ASCII)));
            this.selector = Selector.open();
            for (int i = 0; i < count; i++) {
                open();
            }
            thread = new Thread(this::hold, "hostile");
            thread.setDaemon(true);
            thread.start();
        }

        private void open() {
            try {
                SocketChannel channel = SocketChannel.open();
                channel.socket().connect(address, 5_000);
                ByteBuffer head = ByteBuffer.wrap(heads.get(next++ % heads.size()));
                while (head.hasRemaining()) {
                    channel.write(head);
                }
                channel.configureBlocking(false);
                channel.register(selector, SelectionKey.OP_READ);
                channels.add(channel);
                opened.incrementAndGet();
            } catch (IOException refused) {
                // a server that refuses a connection costs the attacker a retry, nothing else
            }
        }

        private void hold() {
            ByteBuffer sink = ByteBuffer.allocate(4096);
            while (running.get()) {
                try {
                    selector.select(200);
                    for (SelectionKey key : selector.selectedKeys()) {
                        SocketChannel channel = (SocketChannel) key.channel();
                        sink.clear();
                        int n;
                        try {
                            n = channel.read(sink);
                        } catch (IOException reset) {
                            n = -1;
                        }
                        if (n != 0) {
                            // answered (a 408, a 503) or closed: the attacker comes back at once
                            cutOff.incrementAndGet();
                            key.cancel();
                            channel.close();
                            channels.remove(channel);
                            if (reopen && running.get()) {
                                open();
                            }
                        }
                    }
                    selector.selectedKeys().clear();
                } catch (IOException e) {
                    return;
                }
            }
        }

        @Override
        public void close() throws IOException {
            running.set(false);
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            synchronized (channels) {
                for (SocketChannel channel : channels) {
                    channel.close();
                }
            }
            selector.close();
        }
    }
}
