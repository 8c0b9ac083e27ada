package dev.hookstile.ingest.control;

import dev.hookstile.platform.boundary.OwnThreads;
import dev.hookstile.source.RejectedDelivery;
import dev.hookstile.source.Rejection;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.function.LongSupplier;

/**
 * Reads a request body into one array, refusing it as soon as it passes the limit: a declared length over the limit
 * is refused before a byte is read, a chunked body as soon as the limit is crossed, so a huge body never fills the
 * heap. The array grows only as bytes arrive (a declared length is a claim, not a reason to allocate), and every
 * growth is first taken from the {@link BodyBudget}; beyond it the body is refused with {@code 503}. The returned
 * array's length is exactly what this request holds of the budget: the caller gives it back when done with it.
 *
 * <p>A body read here blocks its thread, so it must also arrive by a deadline. It is checked after every read, and
 * when the rest of the body is not already there a watchdog interrupts a read still blocked at the deadline: a
 * sender that declares a body and then sends nothing holds the thread until the deadline, not until the socket's own
 * timeout. (Plain HTTP/1.x bodies still arriving are gathered without a thread before they get here; what reaches
 * this loop slowly is a request offering a protocol upgrade, or an HTTP/2 stream.)
 */
public final class RequestBody {

    /** Allocated at first when more is declared than has arrived: a stalled 1 MiB declaration costs this, not 1 MiB. */
    public static final int FIRST_BUFFER = 16 * 1024;

    private static final BodyBudget UNLIMITED = new BodyBudget(Long.MAX_VALUE);

    /**
     * One timer thread for every blocking read's deadline, started at the first watchdog armed. The deployment stops
     * it ({@link #stopWatchdogs}) when it is undeployed: left running, the thread would hold the deployment's classes
     * in memory for the life of the server.
     */
    private static final ScheduledThreadPoolExecutor WATCHDOGS = watchdogs();

    private RequestBody() {
    }

    /**
     * Ends the watchdogs' thread; called once, as the application stops ({@code BodyLimits}). A blocking read still
     * waiting is interrupted with it, as its connection is about to be closed anyway.
     */
    public static void stopWatchdogs() {
        WATCHDOGS.shutdownNow();
    }

    public static void checkDeclaredLength(long declaredLength, int limit) throws RejectedDelivery {
        if (declaredLength > limit) {
            throw tooLarge(limit);
        }
    }

    /** By when the whole body must have arrived. */
    public record Deadline(LongSupplier nanoClock, long atNanos, int seconds) {

        static final Deadline NONE = new Deadline(System::nanoTime, Long.MAX_VALUE, 0);

        public static Deadline in(int seconds) {
            return seconds <= 0 ? NONE : new Deadline(System::nanoTime, System.nanoTime() + seconds * 1_000_000_000L,
                    seconds);
        }

        void check() throws RejectedDelivery {
            if (atNanos != Long.MAX_VALUE && nanoClock.getAsLong() - atNanos > 0) {
                throw expired();
            }
        }

        RejectedDelivery expired() {
            return new RejectedDelivery(Rejection.BODY_TIMEOUT, "the body did not arrive within " + seconds
                    + " s; nothing was accepted");
        }

        long remainingNanos() {
            return atNanos == Long.MAX_VALUE ? Long.MAX_VALUE : atNanos - nanoClock.getAsLong();
        }
    }

    public static byte[] read(InputStream in, long declaredLength, int limit) throws RejectedDelivery {
        return read(in, declaredLength, limit, Deadline.NONE);
    }

    public static byte[] read(InputStream in, long declaredLength, int limit, Deadline deadline) throws RejectedDelivery {
        return read(in, declaredLength, limit, deadline, UNLIMITED);
    }

    /**
     * @return the body, in an array whose length {@code budget} holds until the caller gives it back
     */
    public static byte[] read(InputStream in, long declaredLength, int limit, Deadline deadline, BodyBudget budget)
            throws RejectedDelivery {
        checkDeclaredLength(declaredLength, limit);
        var buffer = new Buffer(budget);
        Watchdog watchdog = null;
        try {
            int arrived = in.available();
            if (declaredLength < 0 || arrived < declaredLength) {
                // A read may block: the deadline must not depend on it returning.
                watchdog = Watchdog.arm(deadline, WATCHDOGS);
            }
            byte[] body = declaredLength >= 0
                    ? readDeclared(in, (int) declaredLength, arrived, deadline, buffer, watchdog)
                    : readChunked(in, limit, arrived, deadline, buffer, watchdog);
            if (body.length == 0) {
                throw new RejectedDelivery(Rejection.INVALID_PAYLOAD, "the body is empty");
            }
            buffer.keep();
            return body;
        } catch (IOException e) {
            if (watchdog != null && watchdog.fired()) {
                throw deadline.expired();
            }
            throw new RejectedDelivery(Rejection.INVALID_PAYLOAD, "the body could not be read: " + e.getMessage());
        } finally {
            if (watchdog != null) {
                watchdog.disarm();
            }
            buffer.release();
        }
    }

    private static byte[] readDeclared(InputStream in, int length, int arrived, Deadline deadline, Buffer buffer,
                                       Watchdog watchdog) throws IOException, RejectedDelivery {
        // All there (the usual case): one array of exactly the body's size, as before the budget.
        buffer.ensure(arrived >= length ? length : Math.min(length, Math.max(arrived, FIRST_BUFFER)), length);
        while (buffer.size < length) {
            buffer.ensure(buffer.size + 1, length);
            int n = read(in, buffer, length - buffer.size, watchdog);
            if (n < 0) {
                throw new RejectedDelivery(Rejection.INVALID_PAYLOAD, "the body ended after " + buffer.size
                        + " of the " + length + " bytes announced by Content-Length");
            }
            buffer.size += n;
            if (buffer.size < length) {
                deadline.check();
            }
        }
        return buffer.exact();
    }

    private static byte[] readChunked(InputStream in, int limit, int arrived, Deadline deadline, Buffer buffer,
                                      Watchdog watchdog) throws IOException, RejectedDelivery {
        // One byte past the limit is enough to know it was passed.
        int cap = limit + 1;
        buffer.ensure(Math.min(cap, Math.max(arrived, FIRST_BUFFER)), cap);
        while (true) {
            buffer.ensure(buffer.size + 1, cap);
            int n = read(in, buffer, cap - buffer.size, watchdog);
            if (n < 0) {
                return buffer.exact();
            }
            buffer.size += n;
            if (buffer.size > limit) {
                throw tooLarge(limit);
            }
            deadline.check();
        }
    }

    private static int read(InputStream in, Buffer buffer, int wanted, Watchdog watchdog) throws IOException {
        int room = Math.min(wanted, buffer.bytes.length - buffer.size);
        if (watchdog == null) {
            return in.read(buffer.bytes, buffer.size, room);
        }
        watchdog.reading();
        try {
            return in.read(buffer.bytes, buffer.size, room);
        } finally {
            watchdog.idle();
        }
    }

    private static RejectedDelivery tooLarge(int limit) {
        return new RejectedDelivery(Rejection.PAYLOAD_TOO_LARGE, "the body exceeds the limit of " + limit + " bytes");
    }

    private static RejectedDelivery overBudget(BodyBudget budget) {
        return new RejectedDelivery(Rejection.BODY_BUFFERS_FULL, "the bodies being received fill the "
                + budget.limit() + " bytes set aside for them; nothing was accepted, retry later");
    }

    private static ScheduledThreadPoolExecutor watchdogs() {
        var executor = new ScheduledThreadPoolExecutor(1, OwnThreads.named("hookstile-body-watchdog"));
        executor.setRemoveOnCancelPolicy(true);
        return executor;
    }

    /** The growing array, and what it holds of the budget: exactly its length. */
    private static final class Buffer {

        private static final byte[] EMPTY = new byte[0];

        private final BodyBudget budget;
        private byte[] bytes = EMPTY;
        private int size;
        private boolean kept;

        Buffer(BodyBudget budget) {
            this.budget = budget;
        }

        /** At least {@code needed} bytes of room, doubling, never more than {@code cap}. */
        void ensure(int needed, int cap) throws RejectedDelivery {
            if (needed <= bytes.length) {
                return;
            }
            int grown = (int) Math.min(cap, Math.max(needed, 2L * bytes.length));
            if (!budget.take(grown)) {
                throw overBudget(budget);
            }
            byte[] old = bytes;
            bytes = Arrays.copyOf(old, grown);
            budget.give(old.length);
        }

        /** The body in an array of its own size; the budget then holds exactly that. */
        byte[] exact() throws RejectedDelivery {
            if (bytes.length != size) {
                if (!budget.take(size)) {
                    throw overBudget(budget);
                }
                byte[] old = bytes;
                bytes = Arrays.copyOf(old, size);
                budget.give(old.length);
            }
            return bytes;
        }

        /** The array leaves with the caller, and its share of the budget with it. */
        void keep() {
            kept = true;
        }

        void release() {
            if (!kept) {
                budget.give(bytes.length);
                bytes = EMPTY;
            }
        }
    }
}
