package dev.hookstile.dedup.boundary;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The events this instance recently handed to the broker or found recorded, so that a repeat is answered
 * {@code duplicate} without a database lookup, including one that arrives while its first copy is still queued and
 * not yet claimed (the database cannot know it then), and one that arrives while its first copy is being sent.
 *
 * <p>Concurrent copies of one event (a sender's retry storm) wait for the first copy's send instead of sending too:
 * only once the broker has stored it are they answered {@code duplicate}; if that send fails, the next copy sends
 * itself. So a copy is never answered 2xx for an event that is not stored.
 *
 * <p>Bounded: the oldest entries are forgotten first, and what is forgotten falls back to the database lookup, which
 * is exact for every processed event. Per instance: the claim in the consumer is what guarantees exactly-once, this
 * only saves work.
 */
public final class AcceptedEvents {

    /** How long a copy waits for a concurrent first copy's send before sending itself. */
    static final long WAIT_MILLIS = 5_000;

    private static final Object STORED = Boolean.TRUE;

    private final int capacity;
    private final Map<String, Object> entries = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<String> order = new ConcurrentLinkedQueue<>();
    private final AtomicInteger size = new AtomicInteger();

    public AcceptedEvents(int capacity) {
        this.capacity = Math.max(0, capacity);
    }

    /** What a delivery of one event may do. */
    public sealed interface Admission permits Known, First {
    }

    /** The event is stored already (queued by this instance, or recorded): answer {@code duplicate}. */
    public record Known() implements Admission {
    }

    /**
     * This copy is the one to send: report the outcome with {@link #stored()} or {@link #failed()}, always, or
     * concurrent copies wait for it until {@link #WAIT_MILLIS}.
     */
    public final class First implements Admission {
        private final String key;
        private final CompletableFuture<Void> sending;

        private First(String key, CompletableFuture<Void> sending) {
            this.key = key;
            this.sending = sending;
        }

        /** The broker stored it, or the database knows it: later copies are duplicates. */
        public void stored() {
            if (key != null) {
                entries.replace(key, sending, STORED);
                sending.complete(null);
            }
        }

        /** Nothing was stored: forget it, and let a waiting copy send. */
        public void failed() {
            if (key != null) {
                entries.remove(key, sending);
                sending.completeExceptionally(new IllegalStateException("not stored"));
            }
        }
    }

    public static final Known KNOWN = new Known();

    public Admission admit(String source, String eventId) {
        if (capacity == 0) {
            return new First(null, null);
        }
        String key = source + '\n' + eventId;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
        while (true) {
            var sending = new CompletableFuture<Void>();
            Object existing = entries.putIfAbsent(key, sending);
            if (existing == null) {
                remember(key);
                return new First(key, sending);
            }
            if (existing == STORED) {
                return KNOWN;
            }
            @SuppressWarnings("unchecked")
            var other = (CompletableFuture<Void>) existing;
            try {
                other.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                return KNOWN;
            } catch (ExecutionException failedElsewhere) {
                // The other copy was not stored: try to become the one that sends.
            } catch (TimeoutException slow) {
                // Unsure: send this copy too; the claim makes the second one a no-op.
                return new First(null, null);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                return new First(null, null);
            }
        }
    }

    private void remember(String key) {
        order.add(key);
        if (size.incrementAndGet() > capacity) {
            String oldest = order.poll();
            if (oldest != null) {
                size.decrementAndGet();
                entries.computeIfPresent(oldest, (k, v) -> v == STORED ? null : v);
            }
        }
    }

    /** Entries held now, for tests. */
    int size() {
        return entries.size();
    }
}
