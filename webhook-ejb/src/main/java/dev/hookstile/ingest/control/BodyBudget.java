package dev.hookstile.ingest.control;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes every request body buffered at once may take together. A request's buffer grows only as its bytes
 * arrive, and each growth is taken from here first: a body that would pass the budget is refused ({@code 503}) instead
 * of allocated, so a thousand connections declaring large bodies cannot fill the heap, and memory that is taken is
 * given back when the request ends, however it ends.
 */
public final class BodyBudget {

    private final long limit;
    private final AtomicLong used = new AtomicLong();

    public BodyBudget(long limit) {
        if (limit <= 0) {
            throw new IllegalArgumentException("the body buffer budget must be positive, not " + limit);
        }
        this.limit = limit;
    }

    /** Takes {@code bytes} if they fit, all or nothing. */
    public boolean take(long bytes) {
        if (bytes <= 0) {
            return true;
        }
        for (long now = used.get(); ; now = used.get()) {
            if (bytes > limit - now) {
                return false;
            }
            if (used.compareAndSet(now, now + bytes)) {
                return true;
            }
        }
    }

    /** Gives back what {@link #take} granted. */
    public void give(long bytes) {
        if (bytes > 0) {
            used.addAndGet(-bytes);
        }
    }

    /** Bytes held now, by every request together. */
    public long used() {
        return used.get();
    }

    public long limit() {
        return limit;
    }

    /** A fresh share for one request, by which that request's buffers are taken and given back together. */
    public Share share() {
        return new Share(this);
    }

    /**
     * One request's part of the budget. Grows as its buffer grows, from whichever thread reads; {@link #close()}
     * gives everything back at once and refuses further growth, so a reader racing the end of its request (a
     * deadline, the client gone) can never keep bytes the request no longer holds.
     */
    public static final class Share implements AutoCloseable {

        private static final long CLOSED = -1;

        private final BodyBudget budget;
        private final AtomicLong held = new AtomicLong();

        private Share(BodyBudget budget) {
            this.budget = budget;
        }

        /** Takes {@code bytes} more for this request; false if the budget is spent or the share already closed. */
        public boolean grow(long bytes) {
            if (bytes <= 0) {
                return held.get() != CLOSED;
            }
            if (!budget.take(bytes)) {
                return false;
            }
            for (long now = held.get(); ; now = held.get()) {
                if (now == CLOSED) {
                    budget.give(bytes);
                    return false;
                }
                if (held.compareAndSet(now, now + bytes)) {
                    return true;
                }
            }
        }

        /** Gives back {@code bytes} of what this request holds (a buffer replaced by a larger one). */
        public void shrink(long bytes) {
            if (bytes <= 0) {
                return;
            }
            for (long now = held.get(); now != CLOSED; now = held.get()) {
                long less = Math.min(bytes, now);
                if (held.compareAndSet(now, now - less)) {
                    budget.give(less);
                    return;
                }
            }
        }

        /** Bytes this request holds. */
        public long held() {
            return Math.max(0, held.get());
        }

        /** Gives back all this request holds; idempotent. */
        @Override
        public void close() {
            long was = held.getAndSet(CLOSED);
            if (was > 0) {
                budget.give(was);
            }
        }
    }
}
