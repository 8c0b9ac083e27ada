package dev.hookstile.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Hookstile's load generator: signed GitHub deliveries over raw-socket HTTP/1.1 keep-alive connections, one thread
 * per connection, every latency sample kept (exact percentiles). Plain Java 17, no dependencies. See {@link Options#HELP}.
 */
public final class Load {

    public static void main(String[] args) throws Exception {
        Options o = Options.parse(args);
        if (o.mode.equals("receive")) {
            Receiver.start(o.port);
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
        Stats.slowNanos = (long) (o.slowMs * 1e6);
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
        Totals totals = Totals.of(allStats);
        long repeats = totals.requests - ids[0];
        return result(cpu0, totals) + " group=" + g + " ids=" + ids[0] + " repeats=" + repeats
                + " dup_fraction=" + Totals.fmt(repeats > 0 ? (double) totals.s200 / repeats : 0, 4) + " prefix=" + o.prefix;
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
        Totals totals = Totals.of(allStats);
        totals.errors += unsent.sum();
        Stats.printSlow(allStats, t0);
        return result(cpu0, totals) + " offered=" + Totals.fmt(o.rate, 1) + " scheduled=" + (total - warmupRequests)
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

    String result(long cpu0, Totals t) {
        long cpu = cpuNanos() - cpu0;
        Totals totals = t == null ? Totals.of(allStats) : t;
        double seconds = totals.lastEnd > measureFrom ? (totals.lastEnd - measureFrom) / 1e9 : o.seconds;
        return totals.line(o, seconds, cpu);
    }
}
