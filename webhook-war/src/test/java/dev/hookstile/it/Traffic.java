package dev.hookstile.it;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Signed webhooks from a number of concurrent senders, each event new, for as long as a fault scenario runs. Every
 * answer is kept per event id, so the scenario can hold the server to each one: 2xx means processed exactly once,
 * any other answer means never processed, and no answer (a timeout, a reset) means at most once.
 */
public final class Traffic implements AutoCloseable {

    /** What a sender got: a status code, or {@link #NO_ANSWER}. */
    public static final int NO_ANSWER = -1;
    /** A sender gives up as GitHub does. */
    static final Duration PATIENCE = Duration.ofSeconds(10);

    private final Webhooks webhooks;
    private final String prefix;
    private final Map<String, Integer> answers = new ConcurrentHashMap<>();
    private final List<Sample> samples = Collections.synchronizedList(new ArrayList<>());
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong sequence = new AtomicLong();
    private final List<Thread> senders = new ArrayList<>();
    private final long origin = System.nanoTime();

    /** When a request was sent (ms since the traffic started), how long its answer took, and what it was. */
    public record Sample(long sentAtMillis, long latencyMillis, int status) {
    }

    private Traffic(Webhooks webhooks, String prefix) {
        this.webhooks = webhooks;
        this.prefix = prefix;
    }

    /** Starts {@code senders} threads posting new events to the {@code it} source, ids starting with {@code prefix}. */
    public static Traffic start(Webhooks webhooks, String prefix, int senders) {
        var traffic = new Traffic(webhooks, prefix);
        for (int i = 0; i < senders; i++) {
            Thread sender = new Thread(traffic::send, "traffic-" + i);
            sender.setDaemon(true);
            traffic.senders.add(sender);
            sender.start();
        }
        return traffic;
    }

    /** Milliseconds since the traffic started: the clock of {@link Sample#sentAtMillis()}. */
    public long elapsedMillis() {
        return (System.nanoTime() - origin) / 1_000_000;
    }

    private void send() {
        Webhooks own = new Webhooks(webhooks.base());
        while (running.get()) {
            String id = prefix + sequence.incrementAndGet();
            HttpRequest.Builder request = own.standard("it", id, "{\"type\":\"load\"}").timeout(PATIENCE);
            long start = System.nanoTime();
            int status;
            try {
                HttpResponse<String> response = own.send(request);
                status = response.statusCode();
            } catch (RuntimeException e) {
                status = NO_ANSWER;
            }
            long end = System.nanoTime();
            answers.put(id, status);
            samples.add(new Sample((start - origin) / 1_000_000, (end - start) / 1_000_000, status));
            if (status != 202 && status != 200) {
                // A refused or failed request: back off as a sender would, instead of spinning on a fault.
                Webhooks.sleep(Duration.ofMillis(100));
            }
        }
    }

    /** Stops sending and waits for the requests in flight. */
    @Override
    public void close() {
        running.set(false);
        for (Thread sender : senders) {
            try {
                sender.join(PATIENCE.toMillis() + 5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Every event sent, with the answer it got. */
    public Map<String, Integer> answers() {
        return Map.copyOf(answers);
    }

    public List<Sample> samples() {
        synchronized (samples) {
            return List.copyOf(samples);
        }
    }

    /** Answers to requests sent in the window [fromMillis, toMillis) since the traffic started. */
    public List<Sample> sentBetween(long fromMillis, long toMillis) {
        return samples().stream().filter(s -> s.sentAtMillis() >= fromMillis && s.sentAtMillis() < toMillis).toList();
    }

    public static long percentile(List<Sample> samples, double p) {
        if (samples.isEmpty()) {
            return 0;
        }
        long[] sorted = samples.stream().mapToLong(Sample::latencyMillis).sorted().toArray();
        return sorted[(int) Math.min(sorted.length - 1, Math.ceil(p / 100.0 * sorted.length) - 1)];
    }
}
