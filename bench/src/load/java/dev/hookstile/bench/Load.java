package dev.hookstile.bench;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Hookstile's load generator: signed GitHub deliveries over raw-socket HTTP/1.1 keep-alive connections, one thread
 * per connection, every latency sample kept (exact percentiles). Plain Java 17, no dependencies. See {@link #HELP}.
 */
public final class Load {

    static final String HELP = """
            usage: java -jar hookstile-load.jar <mode> [options]

            Sends GitHub push deliveries (a ~732-byte JSON body carrying the delivery id; Content-Type,
            X-GitHub-Event: push, X-GitHub-Delivery: <id>, X-Hub-Signature-256: sha256=<HMAC-SHA256(secret, body)>)
            to POST <path> over HTTP/1.1 keep-alive connections (raw sockets, one thread per connection).

            modes:
              closed   --connections N connections, each sending back to back for --seconds (after --warmup
                       seconds that are not recorded). New ids <prefix><n>.
              dup      like closed, but every request carries the same id (--id, default <prefix>dup). It is sent
                       first until answered 200 (processed and known), up to 60 s.
              storm    --group G connections (default 10) send the same new id at the same moment, wait for all G
                       answers, then the next id. Reports how many repeats were answered 200 duplicate vs 202.
              open     offered rate --rate R for --seconds: request i is scheduled at t0 + i/R and its latency runs
                       from that scheduled time to the end of its answer (no coordinated omission). A pool of up
                       to --connections C (default 64) workers takes the scheduled requests in order; when all are
                       busy a request waits, and the wait counts in its latency.
              receive  a destination for forwarded events: listens on 127.0.0.1:--port and answers every request
                       204, until stopped (SIGTERM); then prints RESULT mode=receive requests=<n>.

            options:
              --host H           server host (127.0.0.1)
              --port P           server port (8080)
              --path P           request path (/webhooks/bench); /bench/bare for the bare endpoint
              --secret S         the source's GitHub secret (hookstile-bench-secret)
              --connections N    connections (closed, dup: 16; open: 64)
              --group G          storm: copies of each id sent at once (10)
              --seconds D        recorded duration (20)
              --warmup W         seconds run first and not recorded (0)
              --rate R           open: offered requests per second (500)
              --prefix P         id prefix (random, e.g. 3f9a1c2e-); ids are <prefix><counter>
              --id ID            dup: the one id (<prefix>dup)
              --timeout-ms T     socket connect and read timeout (30000)
              --slow-ms S        also print, on stderr after the run, each recorded request slower than S ms:
                                 SLOW due=<ms after the first request was due> ms=<latency> at=<when it was due, UTC>
              --help

            output: a progress line per second on stderr (t=<s> rate=<answers in that second> ...), then ONE line
            on stdout:
              RESULT mode=... requests=<answers recorded> seconds=<recorded span> rate=<requests/s>
                     p50= p90= p99= p999= max= mean= (ms) s2xx= s200= s202= other= errors= cpu_ms=<this JVM's CPU>
                     [other_codes=<status>:<n>,...] [mode-specific fields]
              storm adds ids=, repeats= (requests - ids), dup_fraction= (s200 / repeats);
              open adds offered=, scheduled=, unsent= (not sent within 30 s after the end: counted as errors);
              dup adds id= and known=.
            errors are I/O failures and timeouts (the connection is then re-opened); other is any answer outside 2xx.
            """;

    // A push event shaped like GitHub's, 732 bytes with an id of 19 characters; the id makes each body distinct.
    static final String BODY = "{\"ref\":\"refs/heads/main\",\"before\":\"6113728f27ae82c7b1a177c8d03f9e96e0adf246\","
            + "\"after\":\"59b20b8d5c6ff8d09518454d4dd8b7b30f095ab5\",\"repository\":{\"id\":1296269,\"name\":\"hookstile\","
            + "\"full_name\":\"octo-org/hookstile\",\"private\":false,\"owner\":{\"login\":\"octo-org\",\"id\":6811672},"
            + "\"html_url\":\"https://github.com/octo-org/hookstile\",\"default_branch\":\"main\"},"
            + "\"pusher\":{\"name\":\"octocat\",\"email\":\"octocat@github.com\"},"
            + "\"sender\":{\"login\":\"octocat\",\"id\":583231,\"type\":\"User\"},"
            + "\"created\":false,\"deleted\":false,\"forced\":false,"
            + "\"head_commit\":{\"id\":\"59b20b8d5c6ff8d09518454d4dd8b7b30f095ab5\",\"message\":\"Bench delivery of %ID%\","
            + "\"timestamp\":\"2025-01-15T10:22:31Z\",\"author\":{\"name\":\"Mona Octocat\",\"email\":\"octocat@github.com\","
            + "\"username\":\"octocat\"}}}";

    // ------------------------------------------------------------------------------------------------ options

    static final class Options {
        String mode;
        String host = "127.0.0.1";
        int port = 8080;
        String path = "/webhooks/bench";
        String secret = "hookstile-bench-secret";
        int connections = -1;
        int group = 10;
        double seconds = 20;
        double warmup = 0;
        double rate = 500;
        String prefix;
        String id;
        int timeoutMs = 30_000;
        double slowMs;
    }

    static Options parse(String[] args) {
        Options o = new Options();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--help") || a.equals("-h")) {
                System.out.print(HELP);
                System.exit(0);
            }
            if (!a.startsWith("--")) {
                if (o.mode != null) {
                    usage("unexpected argument: " + a);
                }
                o.mode = a;
                continue;
            }
            String name = a.substring(2);
            String value;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            } else {
                if (i + 1 >= args.length) {
                    usage("missing value for --" + name);
                }
                value = args[++i];
            }
            try {
                switch (name) {
                    case "host" -> o.host = value;
                    case "port" -> o.port = Integer.parseInt(value);
                    case "path" -> o.path = value;
                    case "secret" -> o.secret = value;
                    case "connections" -> o.connections = Integer.parseInt(value);
                    case "group" -> o.group = Integer.parseInt(value);
                    case "seconds" -> o.seconds = Double.parseDouble(value);
                    case "warmup" -> o.warmup = Double.parseDouble(value);
                    case "rate" -> o.rate = Double.parseDouble(value);
                    case "prefix" -> o.prefix = value;
                    case "id" -> o.id = value;
                    case "timeout-ms" -> o.timeoutMs = Integer.parseInt(value);
                    case "slow-ms" -> o.slowMs = Double.parseDouble(value);
                    default -> usage("unknown option --" + name);
                }
            } catch (NumberFormatException e) {
                usage("not a number for --" + name + ": " + value);
            }
        }
        if (o.mode == null) {
            usage("no mode given");
        }
        if (!List.of("closed", "dup", "storm", "open", "receive").contains(o.mode)) {
            usage("unknown mode: " + o.mode);
        }
        if (o.connections < 0) {
            o.connections = o.mode.equals("open") ? 64 : 16;
        }
        if (o.prefix == null) {
            byte[] random = new byte[4];
            new SecureRandom().nextBytes(random);
            o.prefix = hex(random) + "-";
        }
        if (o.id == null) {
            o.id = o.prefix + "dup";
        }
        if (o.connections < 1 || o.group < 1 || o.seconds <= 0 || o.warmup < 0 || o.rate <= 0) {
            usage("connections, group, seconds and rate must be positive");
        }
        return o;
    }

    /** The bench's destination: counts what the outbox relay delivers, answers at once. */
    static void receive(int port) throws IOException {
        LongAdder requests = new LongAdder();
        var server = com.sun.net.httpserver.HttpServer.create(new InetSocketAddress("127.0.0.1", port), 64);
        server.setExecutor(java.util.concurrent.Executors.newFixedThreadPool(2));
        server.createContext("/", exchange -> {
            try (exchange) {
                exchange.getRequestBody().readAllBytes();
                requests.increment();
                exchange.sendResponseHeaders(204, -1);
            }
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.stop(0);
            System.out.println("RESULT mode=receive requests=" + requests.sum());
            System.out.flush();
        }));
        server.start();
    }

    static void usage(String problem) {
        System.err.println("hookstile-load: " + problem);
        System.err.print(HELP);
        System.exit(2);
    }

    // ------------------------------------------------------------------------------------------------ main

    public static void main(String[] args) throws Exception {
        Options o = parse(args);
        if (o.mode.equals("receive")) {
            receive(o.port);
            return;
        }
        Load load = new Load(o);
        String result = switch (o.mode) {
            case "closed" -> load.closed(null);
            case "dup" -> load.dup();
            case "storm" -> load.storm();
            case "open" -> load.open();
            default -> throw new IllegalStateException(o.mode);
        };
        System.out.println(result);
        System.out.flush();
        System.exit(0);
    }

    final Options o;
    final AtomicLong counter = new AtomicLong();
    /** Answers (any status) and errors since the start, warm-up included: the progress line. */
    final LongAdder answered = new LongAdder();
    final LongAdder failed = new LongAdder();
    final List<Stats> allStats = new ArrayList<>();
    volatile long t0;
    volatile long measureFrom;

    Load(Options o) {
        this.o = o;
        slowNanos = (long) (o.slowMs * 1e6);
    }

    String nextId() {
        return o.prefix + counter.incrementAndGet();
    }

    synchronized Stats newStats() {
        Stats s = new Stats();
        allStats.add(s);
        return s;
    }

    // ------------------------------------------------------------------------------------------------ modes

    /** Closed loop: every connection sends back to back; fixed id for dup, new ids otherwise. */
    String closed(String fixedId) throws Exception {
        long cpu0 = runWorkers("load", o.connections, null, (client, stats) -> {
            sleepUntil(t0);
            long end = measureFrom + nanos(o.seconds);
            while (true) {
                long start = System.nanoTime();
                if (start >= end) {
                    break;
                }
                exchange(client, fixedId != null ? fixedId : nextId(), start, start >= measureFrom, stats);
            }
        });
        return result(cpu0, null) + (fixedId != null ? "" : " prefix=" + o.prefix);
    }

    String dup() throws Exception {
        Client client = new Client(o);
        long deadline = System.nanoTime() + nanos(60);
        boolean known = false;
        int tries = 0;
        while (System.nanoTime() < deadline) {
            tries++;
            try {
                int status = client.send(o.id);
                if (status == 200) {
                    known = true;
                    break;
                }
                if (status != 202) {
                    System.err.println("dup: priming " + o.id + " was answered " + status);
                }
            } catch (IOException e) {
                System.err.println("dup: priming " + o.id + " failed: " + e);
                client.close();
            }
            Thread.sleep(100);
        }
        client.close();
        System.err.println("dup: id " + o.id + (known ? " known (200 duplicate) after " + tries + " sends"
                : " still not answered 200 after 60 s: the measurement may see 202s"));
        return closed(o.id) + " id=" + o.id + " known=" + known;
    }

    /** Groups of G copies of one id, sent at the same moment on G connections; next id when all G are answered. */
    String storm() throws Exception {
        int g = o.group;
        String[] current = new String[1];
        boolean[] stop = new boolean[1];
        long[] ids = new long[1];
        boolean[] measured = new boolean[1];
        // The barrier action runs in the last thread to arrive, before any is released: the next round's id.
        CyclicBarrier round = new CyclicBarrier(g, () -> {
            long now = System.nanoTime();
            if (now >= measureFrom + nanos(o.seconds)) {
                stop[0] = true;
            } else {
                current[0] = nextId();
                // A round is recorded whole or not at all: its id and its G answers.
                measured[0] = now >= measureFrom;
                if (measured[0]) {
                    ids[0]++;
                }
            }
        });
        long cpu0 = runWorkers("storm", g, null, (client, stats) -> {
            sleepUntil(t0);
            while (true) {
                if (!await(round) || stop[0]) {
                    break;
                }
                exchange(client, current[0], System.nanoTime(), measured[0], stats);
            }
        });
        Totals totals = totals();
        long repeats = totals.requests - ids[0];
        return result(cpu0, totals) + " group=" + g + " ids=" + ids[0] + " repeats=" + repeats
                + " dup_fraction=" + fmt(repeats > 0 ? (double) totals.s200 / repeats : 0, 4) + " prefix=" + o.prefix;
    }

    /** Open model: request i is due at t0 + i/R; latency from its due time. */
    String open() throws Exception {
        int n = o.connections;
        double interval = 1e9 / o.rate;
        long total = Math.round(o.rate * (o.warmup + o.seconds));
        long warmupRequests = Math.round(o.rate * o.warmup);
        AtomicLong next = new AtomicLong();
        LongAdder unsent = new LongAdder();
        long cpu0 = runWorkers("open", n, () -> {
            long due = Math.min(total, (long) ((System.nanoTime() - t0) / interval) + 1);
            return " behind=" + Math.max(0, due - answered.sum() - failed.sum());
        }, (client, stats) -> {
            long giveUp = t0 + nanos(o.warmup + o.seconds + 30);
            while (true) {
                long i = next.getAndIncrement();
                if (i >= total) {
                    break;
                }
                long due = t0 + (long) (i * interval);
                sleepUntil(due);
                if (System.nanoTime() > giveUp) {
                    if (i >= warmupRequests) {
                        unsent.increment();
                    }
                    continue;
                }
                exchange(client, nextId(), due, i >= warmupRequests, stats);
            }
        });
        Totals totals = totals();
        totals.errors += unsent.sum();
        printSlow();
        return result(cpu0, totals) + " offered=" + fmt(o.rate, 1) + " scheduled=" + (total - warmupRequests)
                + " unsent=" + unsent.sum() + " prefix=" + o.prefix;
    }

    // ------------------------------------------------------------------------------------------------ plumbing

    /** One request and its answer; recorded (latency from {@code from}) when {@code record}. */
    void exchange(Client client, String id, long from, boolean record, Stats stats) {
        try {
            int status = client.send(id);
            long end = System.nanoTime();
            answered.increment();
            if (record) {
                stats.add(end - from, status, end);
            }
        } catch (IOException e) {
            failed.increment();
            if (record) {
                stats.errors++;
            }
            if (stats.errorsPrinted++ < 3) {
                System.err.println(Thread.currentThread().getName() + ": " + e);
            }
            client.close();
            LockSupport.parkNanos(nanos(0.05));
        }
    }

    /** What one connection's thread does once connected and released at t0. */
    interface Worker {
        void run(Client client, Stats stats);
    }

    /**
     * Runs {@code n} threads, each with its own connection and statistics, releases them together at t0 and waits for
     * them; returns this process's CPU time at the release, for the result line.
     */
    long runWorkers(String name, int n, Extra extra, Worker worker) throws InterruptedException {
        CyclicBarrier ready = new CyclicBarrier(n + 1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < n; t++) {
            Stats stats = newStats();
            threads.add(new Thread(() -> {
                Client client = new Client(o);
                client.tryConnect();
                await(ready);
                worker.run(client, stats);
                client.close();
            }, name + "-" + t));
        }
        threads.forEach(Thread::start);
        long cpu0 = cpuNanos();
        start(ready, extra);
        join(threads);
        return cpu0;
    }

    interface Extra {
        String get();
    }

    /** Releases the threads waiting on {@code ready} at t0 and prints a progress line per second until they end. */
    void start(CyclicBarrier ready, Extra extra) {
        t0 = System.nanoTime() + nanos(0.05);
        measureFrom = t0 + nanos(o.warmup);
        await(ready);
        Thread progress = new Thread(() -> {
            long last = 0;
            for (int s = 1; ; s++) {
                sleepUntil(t0 + nanos(s));
                long now = answered.sum();
                System.err.println("t=" + s + " rate=" + (now - last) + " errors=" + failed.sum()
                        + (s <= o.warmup ? " (warm-up)" : "") + (extra != null ? extra.get() : ""));
                last = now;
            }
        }, "progress");
        progress.setDaemon(true);
        progress.start();
    }

    static void sleepUntil(long nanoTime) {
        long wait;
        while ((wait = nanoTime - System.nanoTime()) > 0) {
            LockSupport.parkNanos(wait);
        }
    }

    static boolean await(CyclicBarrier barrier) {
        try {
            barrier.await();
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (BrokenBarrierException e) {
            return false;
        }
    }

    static void join(List<Thread> threads) throws InterruptedException {
        for (Thread t : threads) {
            t.join();
        }
    }

    static long nanos(double seconds) {
        return (long) (seconds * 1e9);
    }

    static long cpuNanos() {
        var os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun.getProcessCpuTime();
        }
        return 0;
    }

    // ------------------------------------------------------------------------------------------------ results

    /** One thread's samples: only its thread writes, read after join. */
    static final class Stats {
        long[] latencies = new long[1 << 14];
        int n;
        /** Requests slower than --slow-ms: their due time and latency, in pairs. */
        long[] slow = new long[0];
        int slowCount;
        long s200, s202, s2xx, other, errors, lastEnd;
        int errorsPrinted;
        final Map<Integer, Long> otherCodes = new TreeMap<>();

        void add(long latency, int status, long end) {
            if (n == latencies.length) {
                latencies = Arrays.copyOf(latencies, n * 2);
            }
            latencies[n++] = latency;
            lastEnd = end;
            if (slowNanos > 0 && latency > slowNanos) {
                if (2 * slowCount + 2 > slow.length) {
                    slow = Arrays.copyOf(slow, Math.max(64, slow.length * 2));
                }
                slow[2 * slowCount] = end - latency;
                slow[2 * slowCount + 1] = latency;
                slowCount++;
            }
            if (status >= 200 && status < 300) {
                s2xx++;
                if (status == 200) {
                    s200++;
                } else if (status == 202) {
                    s202++;
                }
            } else {
                other++;
                otherCodes.merge(status, 1L, Long::sum);
            }
        }
    }

    /** --slow-ms in nanoseconds, 0 for off; set once before the workers start. */
    static volatile long slowNanos;

    /** The timeline of the tail: when each slow request was due, in order. */
    void printSlow() {
        var slow = new ArrayList<long[]>();
        for (Stats s : allStats) {
            for (int i = 0; i < s.slowCount; i++) {
                slow.add(new long[]{s.slow[2 * i], s.slow[2 * i + 1]});
            }
        }
        slow.sort((a, b) -> Long.compare(a[0], b[0]));
        for (long[] request : slow) {
            long epochMs = System.currentTimeMillis() - (System.nanoTime() - request[0]) / 1_000_000;
            System.err.println("SLOW due=" + fmt((request[0] - t0) / 1e6, 1) + " ms=" + fmt(request[1] / 1e6, 2)
                    + " at=" + Instant.ofEpochMilli(epochMs));
        }
    }

    static final class Totals {
        long[] latencies;
        long requests, s200, s202, s2xx, other, errors, lastEnd;
        final Map<Integer, Long> otherCodes = new TreeMap<>();
    }

    Totals totals() {
        Totals t = new Totals();
        int size = 0;
        for (Stats s : allStats) {
            size += s.n;
        }
        t.latencies = new long[size];
        int at = 0;
        for (Stats s : allStats) {
            System.arraycopy(s.latencies, 0, t.latencies, at, s.n);
            at += s.n;
            t.s200 += s.s200;
            t.s202 += s.s202;
            t.s2xx += s.s2xx;
            t.other += s.other;
            t.errors += s.errors;
            t.lastEnd = Math.max(t.lastEnd, s.lastEnd);
            s.otherCodes.forEach((code, count) -> t.otherCodes.merge(code, count, Long::sum));
        }
        t.requests = size;
        Arrays.sort(t.latencies);
        return t;
    }

    String result(long cpu0, Totals t) {
        long cpu = cpuNanos() - cpu0;
        if (t == null) {
            t = totals();
        }
        double seconds = t.lastEnd > measureFrom ? (t.lastEnd - measureFrom) / 1e9 : o.seconds;
        StringBuilder b = new StringBuilder("RESULT mode=").append(o.mode)
                .append(" path=").append(o.path)
                .append(" connections=").append(o.mode.equals("storm") ? o.group : o.connections)
                .append(" requests=").append(t.requests)
                .append(" seconds=").append(fmt(seconds, 3))
                .append(" rate=").append(fmt(t.requests / seconds, 1));
        for (var p : new Object[][] {{"p50", 0.50}, {"p90", 0.90}, {"p99", 0.99}, {"p999", 0.999}, {"max", 1.0}}) {
            b.append(' ').append(p[0]).append('=').append(fmt(percentile(t.latencies, (Double) p[1]) / 1e6, 3));
        }
        double sum = 0;
        for (long l : t.latencies) {
            sum += l;
        }
        b.append(" mean=").append(fmt(t.requests > 0 ? sum / t.requests / 1e6 : 0, 3))
                .append(" s2xx=").append(t.s2xx)
                .append(" s200=").append(t.s200)
                .append(" s202=").append(t.s202)
                .append(" other=").append(t.other)
                .append(" errors=").append(t.errors)
                .append(" cpu_ms=").append(cpu / 1_000_000);
        if (!t.otherCodes.isEmpty()) {
            StringBuilder codes = new StringBuilder();
            t.otherCodes.forEach((code, count) -> codes.append(codes.length() > 0 ? "," : "").append(code)
                    .append(':').append(count));
            b.append(" other_codes=").append(codes);
        }
        return b.toString();
    }

    static long percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int index = (int) Math.ceil(p * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    static String fmt(double value, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", value);
    }

    static String hex(byte[] bytes) {
        char[] digits = "0123456789abcdef".toCharArray();
        char[] out = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            out[2 * i] = digits[(bytes[i] >> 4) & 0xf];
            out[2 * i + 1] = digits[bytes[i] & 0xf];
        }
        return new String(out);
    }

    // ------------------------------------------------------------------------------------------------ HTTP

    /**
     * One keep-alive connection with its own signer and buffers: builds a signed request, writes it in one go and
     * reads the answer (Content-Length, chunked, or until close). Re-connects when the server closed it.
     */
    static final class Client {
        private static final byte[] BODY_HEAD;
        private static final byte[] BODY_TAIL;

        static {
            int at = BODY.indexOf("%ID%");
            BODY_HEAD = BODY.substring(0, at).getBytes(StandardCharsets.UTF_8);
            BODY_TAIL = BODY.substring(at + 4).getBytes(StandardCharsets.UTF_8);
        }

        private final Options o;
        private final Mac mac;
        private final byte[] headStart;
        private final byte[] body = new byte[BODY_HEAD.length + BODY_TAIL.length + 512];
        private byte[] request = new byte[4096];
        private int requestLength;
        private final byte[] in = new byte[16384];
        private int pos;
        private int limit;
        private final StringBuilder line = new StringBuilder(128);
        private Socket socket;
        private InputStream input;
        private OutputStream output;

        Client(Options o) {
            this.o = o;
            try {
                mac = Mac.getInstance("HmacSHA256");
                mac.init(new SecretKeySpec(o.secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
            String host = o.host.contains(":") ? "[" + o.host + "]" : o.host;
            headStart = ("POST " + o.path + " HTTP/1.1\r\n"
                    + "Host: " + host + ":" + o.port + "\r\n"
                    + "User-Agent: GitHub-Hookshot/hookstile-bench\r\n"
                    + "Accept: */*\r\n"
                    + "Content-Type: application/json\r\n"
                    + "X-GitHub-Event: push\r\n"
                    + "X-GitHub-Hook-ID: 123456789\r\n"
                    + "X-GitHub-Delivery: ").getBytes(StandardCharsets.ISO_8859_1);
        }

        void tryConnect() {
            try {
                connect();
            } catch (IOException e) {
                System.err.println(Thread.currentThread().getName() + ": cannot connect: " + e);
                close();
            }
        }

        void connect() throws IOException {
            Socket s = new Socket();
            s.setTcpNoDelay(true);
            s.setKeepAlive(true);
            s.setSoTimeout(o.timeoutMs);
            s.connect(new InetSocketAddress(o.host, o.port), o.timeoutMs);
            socket = s;
            input = s.getInputStream();
            output = s.getOutputStream();
            pos = 0;
            limit = 0;
        }

        void close() {
            if (socket != null) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // closing anyway
                }
            }
            socket = null;
            input = null;
            output = null;
        }

        /** Sends one signed delivery of {@code id}; returns the status of its answer. */
        int send(String id) throws IOException {
            build(id);
            if (socket == null) {
                connect();
            }
            output.write(request, 0, requestLength);
            output.flush();
            return readResponse();
        }

        private void build(String id) {
            byte[] idBytes = id.getBytes(StandardCharsets.UTF_8);
            int bodyLength = BODY_HEAD.length + idBytes.length + BODY_TAIL.length;
            byte[] b = bodyLength <= body.length ? body : new byte[bodyLength];
            System.arraycopy(BODY_HEAD, 0, b, 0, BODY_HEAD.length);
            System.arraycopy(idBytes, 0, b, BODY_HEAD.length, idBytes.length);
            System.arraycopy(BODY_TAIL, 0, b, BODY_HEAD.length + idBytes.length, BODY_TAIL.length);
            mac.update(b, 0, bodyLength);
            String signature = hex(mac.doFinal());
            String rest = id + "\r\nX-Hub-Signature-256: sha256=" + signature + "\r\nContent-Length: " + bodyLength
                    + "\r\n\r\n";
            byte[] restBytes = rest.getBytes(StandardCharsets.ISO_8859_1);
            int total = headStart.length + restBytes.length + bodyLength;
            if (total > request.length) {
                request = new byte[total * 2];
            }
            System.arraycopy(headStart, 0, request, 0, headStart.length);
            System.arraycopy(restBytes, 0, request, headStart.length, restBytes.length);
            System.arraycopy(b, 0, request, headStart.length + restBytes.length, bodyLength);
            requestLength = total;
        }

        private int readResponse() throws IOException {
            while (true) {
                String statusLine = readLine();
                if (statusLine.length() < 12 || !statusLine.startsWith("HTTP/1.")) {
                    throw new IOException("not an HTTP/1.x status line: " + statusLine);
                }
                int status = Integer.parseInt(statusLine.substring(9, 12));
                boolean http10 = statusLine.startsWith("HTTP/1.0");
                long contentLength = -1;
                boolean chunked = false;
                boolean close = http10;
                for (String header = readLine(); !header.isEmpty(); header = readLine()) {
                    int colon = header.indexOf(':');
                    if (colon <= 0) {
                        continue;
                    }
                    String name = header.substring(0, colon).trim();
                    String value = header.substring(colon + 1).trim();
                    if (name.equalsIgnoreCase("Content-Length")) {
                        contentLength = Long.parseLong(value);
                    } else if (name.equalsIgnoreCase("Transfer-Encoding")) {
                        chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                    } else if (name.equalsIgnoreCase("Connection")) {
                        String v = value.toLowerCase(Locale.ROOT);
                        if (v.contains("close")) {
                            close = true;
                        } else if (v.contains("keep-alive")) {
                            close = false;
                        }
                    }
                }
                if (status >= 100 && status < 200) {
                    continue; // 100 Continue and friends: the real answer follows
                }
                if (status == 204 || status == 304) {
                    contentLength = 0;
                }
                if (chunked) {
                    readChunked();
                } else if (contentLength >= 0) {
                    skip(contentLength);
                } else {
                    // Neither length nor chunks: the body runs until the server closes.
                    try {
                        while (true) {
                            fill();
                        }
                    } catch (EOFException end) {
                        close = true;
                    }
                }
                if (close) {
                    close();
                }
                return status;
            }
        }

        private void readChunked() throws IOException {
            while (true) {
                String size = readLine();
                int semicolon = size.indexOf(';');
                long length = Long.parseLong((semicolon >= 0 ? size.substring(0, semicolon) : size).trim(), 16);
                if (length == 0) {
                    while (!readLine().isEmpty()) {
                        // trailers
                    }
                    return;
                }
                skip(length);
                readLine();
            }
        }

        private void skip(long n) throws IOException {
            while (n > 0) {
                if (pos == limit) {
                    fill();
                }
                int step = (int) Math.min(n, limit - pos);
                pos += step;
                n -= step;
            }
        }

        private String readLine() throws IOException {
            line.setLength(0);
            while (true) {
                if (pos == limit) {
                    fill();
                }
                byte c = in[pos++];
                if (c == '\n') {
                    int len = line.length();
                    if (len > 0 && line.charAt(len - 1) == '\r') {
                        line.setLength(len - 1);
                    }
                    return line.toString();
                }
                line.append((char) (c & 0xff));
                if (line.length() > 65536) {
                    throw new IOException("header line too long");
                }
            }
        }

        private void fill() throws IOException {
            if (input == null) {
                throw new EOFException("not connected");
            }
            int n = input.read(in, 0, in.length);
            if (n < 0) {
                throw new EOFException("the server closed the connection");
            }
            pos = 0;
            limit = n;
        }
    }
}
