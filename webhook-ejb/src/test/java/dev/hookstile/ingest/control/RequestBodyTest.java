package dev.hookstile.ingest.control;

import dev.hookstile.source.RejectedDelivery;
import dev.hookstile.source.Rejection;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RequestBodyTest {

    private static final long ONE_GIB = 1L << 30;

    /** A stream that fails the test if anyone reads from it. */
    private static final class UnreadableStream extends InputStream {
        @Override
        public int read() {
            throw new AssertionError("the body must not be read");
        }

        @Override
        public int read(byte[] b, int off, int len) {
            throw new AssertionError("the body must not be read");
        }
    }

    /** Produces {@code size} bytes of 'x' on demand without ever holding them, counting what was read. */
    private static final class GeneratedStream extends InputStream {
        private final long size;
        private long served;

        GeneratedStream(long size) {
            this.size = size;
        }

        long served() {
            return served;
        }

        @Override
        public int read() {
            if (served >= size) {
                return -1;
            }
            served++;
            return 'x';
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (len == 0) {
                return 0;
            }
            if (served >= size) {
                return -1;
            }
            int n = (int) Math.min(len, size - served);
            Arrays.fill(b, off, off + n, (byte) 'x');
            served += n;
            return n;
        }
    }

    /** A stream that fails with an I/O error, like a client that disconnects mid-body. */
    private static final class BrokenStream extends InputStream {
        @Override
        public int read() throws IOException {
            throw new IOException("connection reset");
        }
    }

    private static byte[] bytes(int size) {
        byte[] body = new byte[size];
        Arrays.fill(body, (byte) 'y');
        return body;
    }

    @Test
    void refusesDeclaredLengthOverTheLimitWithoutReading() {
        var rejected = assertThrows(RejectedDelivery.class,
                () -> RequestBody.read(new UnreadableStream(), 1025, 1024));

        assertEquals(Rejection.PAYLOAD_TOO_LARGE, rejected.reason());
    }

    @Test
    void refusesHugeDeclaredLengthWithoutReading() {
        var rejected = assertThrows(RejectedDelivery.class,
                () -> RequestBody.read(new UnreadableStream(), Long.MAX_VALUE, 1024));

        assertEquals(Rejection.PAYLOAD_TOO_LARGE, rejected.reason());
    }

    /** A byte per read, and a clock that advances a second per read: a sender trickling its body. */
    private static final class TrickleStream extends InputStream {
        final long[] now = {0};

        @Override
        public int read() {
            now[0] += 1_000_000_000L;
            return 'x';
        }

        @Override
        public int read(byte[] b, int off, int len) {
            b[off] = (byte) read();
            return 1;
        }
    }

    @Test
    void declaredBodyTricklingPastTheDeadlineIsRefusedAsTooSlow() {
        var stream = new TrickleStream();
        var deadline = new RequestBody.Deadline(() -> stream.now[0], 10_000_000_000L, 10);

        var rejected = assertThrows(RejectedDelivery.class, () -> RequestBody.read(stream, 1000, 1024, deadline));

        assertEquals(Rejection.BODY_TIMEOUT, rejected.reason());
        assertTrue(stream.now[0] <= 12_000_000_000L, "stopped reading at the deadline");
    }

    @Test
    void chunkedBodyTricklingPastTheDeadlineIsRefusedAsTooSlow() {
        var stream = new TrickleStream();
        var deadline = new RequestBody.Deadline(() -> stream.now[0], 10_000_000_000L, 10);

        var rejected = assertThrows(RejectedDelivery.class, () -> RequestBody.read(stream, -1, 1024, deadline));

        assertEquals(Rejection.BODY_TIMEOUT, rejected.reason());
    }

    @Test
    void bodyArrivingBeforeTheDeadlineIsRead() throws RejectedDelivery {
        var stream = new TrickleStream();
        var deadline = new RequestBody.Deadline(() -> stream.now[0], 10_000_000_000L, 10);

        assertEquals(5, RequestBody.read(stream, 5, 1024, deadline).length);
    }

    @Test
    void checkDeclaredLengthRefusesOverTheLimit() {
        var rejected = assertThrows(RejectedDelivery.class, () -> RequestBody.checkDeclaredLength(1025, 1024));

        assertEquals(Rejection.PAYLOAD_TOO_LARGE, rejected.reason());
    }

    @Test
    void checkDeclaredLengthAllowsTheLimitAndUnknownLengthAndRefusesOneByteMore() {
        assertDoesNotThrow(() -> RequestBody.checkDeclaredLength(1024, 1024));
        assertDoesNotThrow(() -> RequestBody.checkDeclaredLength(-1, 1024));
        assertThrows(RejectedDelivery.class, () -> RequestBody.checkDeclaredLength(1025, 1024));
    }

    @Test
    void refusesChunkedBodyOverTheLimitAndStopsReadingSoonAfter() {
        int limit = 1024 * 1024;
        var stream = new GeneratedStream(ONE_GIB);

        var rejected = assertThrows(RejectedDelivery.class, () -> RequestBody.read(stream, -1, limit));

        assertEquals(Rejection.PAYLOAD_TOO_LARGE, rejected.reason());
        assertTrue(stream.served() > limit, "read " + stream.served() + " bytes");
        assertTrue(stream.served() < limit + 64 * 1024, "read " + stream.served() + " bytes");
    }

    @Test
    void refusesChunkedBodyOneByteOverTheLimit() {
        int limit = 10_000;
        var stream = new GeneratedStream(limit + 1);

        var rejected = assertThrows(RejectedDelivery.class, () -> RequestBody.read(stream, -1, limit));

        assertEquals(Rejection.PAYLOAD_TOO_LARGE, rejected.reason());
    }

    @Test
    void acceptsChunkedBodyExactlyAtTheLimit() throws RejectedDelivery {
        int limit = 100_000;
        byte[] body = bytes(limit);

        assertArrayEquals(body, RequestBody.read(new ByteArrayInputStream(body), -1, limit));
    }

    @Test
    void acceptsDeclaredBodyExactlyAtTheLimit() throws RejectedDelivery {
        int limit = 100_000;
        byte[] body = bytes(limit);

        assertArrayEquals(body, RequestBody.read(new ByteArrayInputStream(body), limit, limit));
    }

    @Test
    void readsOnlyTheDeclaredLength() throws RejectedDelivery {
        byte[] stream = "{\"a\":1}trailing".getBytes();

        assertArrayEquals("{\"a\":1}".getBytes(), RequestBody.read(new ByteArrayInputStream(stream), 7, 1024));
    }

    @Test
    void rejectsEmptyChunkedBody() {
        var rejected = assertThrows(RejectedDelivery.class,
                () -> RequestBody.read(new ByteArrayInputStream(new byte[0]), -1, 1024));

        assertEquals(Rejection.INVALID_PAYLOAD, rejected.reason());
    }

    @Test
    void rejectsDeclaredEmptyBody() {
        var rejected = assertThrows(RejectedDelivery.class,
                () -> RequestBody.read(new ByteArrayInputStream(new byte[0]), 0, 1024));

        assertEquals(Rejection.INVALID_PAYLOAD, rejected.reason());
    }

    @Test
    void rejectsBodyShorterThanItsDeclaredLength() {
        var rejected = assertThrows(RejectedDelivery.class,
                () -> RequestBody.read(new ByteArrayInputStream(bytes(100)), 101, 1024));

        assertEquals(Rejection.INVALID_PAYLOAD, rejected.reason());
    }

    @Test
    void rejectsBodyThatFailsWhileReading() {
        var rejected = assertThrows(RejectedDelivery.class, () -> RequestBody.read(new BrokenStream(), -1, 1024));

        assertEquals(Rejection.INVALID_PAYLOAD, rejected.reason());
    }

    /** Declares much, sends nothing yet: what the reader allocated is visible in the budget at its first read. */
    private static final class StalledStream extends InputStream {
        private final BodyBudget budget;
        long usedAtFirstRead = -1;

        StalledStream(BodyBudget budget) {
            this.budget = budget;
        }

        @Override
        public int read() {
            return -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (usedAtFirstRead < 0) {
                usedAtFirstRead = budget.used();
            }
            return -1;
        }
    }

    @Test
    void aDeclaredLengthIsNotAllocatedBeforeItsBytesArrive() {
        var budget = new BodyBudget(64L * 1024 * 1024);
        var stream = new StalledStream(budget);

        var rejected = assertThrows(RejectedDelivery.class,
                () -> RequestBody.read(stream, 1024 * 1024, 1024 * 1024, RequestBody.Deadline.NONE, budget));

        assertEquals(Rejection.INVALID_PAYLOAD, rejected.reason(), "the body ended early");
        assertTrue(stream.usedAtFirstRead > 0 && stream.usedAtFirstRead <= RequestBody.FIRST_BUFFER,
                "held " + stream.usedAtFirstRead + " bytes before any arrived, not the 1 MiB declared");
        assertEquals(0, budget.used(), "and gave them back");
    }

    @Test
    void aBodyGrowsAsItArrivesAndTheBudgetHoldsExactlyItsLength() throws RejectedDelivery {
        var budget = new BodyBudget(64L * 1024 * 1024);
        byte[] sent = bytes(300_000);
        InputStream trickle = new ByteArrayInputStream(sent) {
            @Override
            public synchronized int available() {
                return 0;
            }

            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 1000));
            }
        };

        byte[] body = RequestBody.read(trickle, sent.length, 1024 * 1024, RequestBody.Deadline.NONE, budget);

        assertArrayEquals(sent, body);
        assertEquals(body.length, budget.used(), "the caller holds exactly the body until it gives it back");
    }

    @Test
    void aChunkedBodyIsReturnedAtItsSizeAndHeldAtItsSize() throws RejectedDelivery {
        var budget = new BodyBudget(64L * 1024 * 1024);
        byte[] sent = bytes(70_000);

        byte[] body = RequestBody.read(new ByteArrayInputStream(sent), -1, 1024 * 1024, RequestBody.Deadline.NONE,
                budget);

        assertArrayEquals(sent, body);
        assertEquals(sent.length, budget.used());
    }

    @Test
    void aBodyAlreadyThereIsReadIntoOneArrayOfItsSize() throws RejectedDelivery {
        var budget = new BodyBudget(64L * 1024 * 1024);
        byte[] sent = bytes(50_000);
        var lengths = new java.util.ArrayList<Integer>();
        InputStream whole = new ByteArrayInputStream(sent) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                lengths.add(b.length);
                return super.read(b, off, len);
            }
        };

        RequestBody.read(whole, sent.length, 1024 * 1024, RequestBody.Deadline.NONE, budget);

        assertEquals(java.util.List.of(sent.length), lengths, "one read into one array of the body's size");
    }

    @Test
    void aBodyPastTheBudgetIsRefusedWith503AndHoldsNothing() {
        var budget = new BodyBudget(100_000);
        assertTrue(budget.take(60_000), "other requests hold most of it");

        var rejected = assertThrows(RejectedDelivery.class, () -> RequestBody.read(
                new ByteArrayInputStream(bytes(50_000)), 50_000, 1024 * 1024, RequestBody.Deadline.NONE, budget));

        assertEquals(Rejection.BODY_BUFFERS_FULL, rejected.reason());
        assertEquals(503, rejected.reason().status());
        assertEquals(60_000, budget.used(), "nothing kept by the refused request");
    }

    @Test
    void aRefusedBodyGivesBackWhatItHad() {
        var budget = new BodyBudget(64L * 1024 * 1024);

        assertThrows(RejectedDelivery.class, () -> RequestBody.read(new GeneratedStream(ONE_GIB), -1, 100_000,
                RequestBody.Deadline.NONE, budget));
        assertThrows(RejectedDelivery.class, () -> RequestBody.read(new BrokenStream(), -1, 100_000,
                RequestBody.Deadline.NONE, budget));

        assertEquals(0, budget.used());
    }

    /** Sends one byte, then blocks as a socket read does with nothing to read; an interrupt wakes it. */
    private static final class BlockingStream extends InputStream {
        private boolean sent;

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0];
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (!sent) {
                sent = true;
                b[off] = '{';
                return 1;
            }
            try {
                Thread.sleep(60_000);
                return -1;
            } catch (InterruptedException e) {
                throw new InterruptedIOException("interrupted");
            }
        }
    }

    @Test
    void aReadBlockedAtTheDeadlineIsCutOffThenAndLeavesNoInterruptBehind() {
        var budget = new BodyBudget(64L * 1024 * 1024);
        long start = System.nanoTime();

        var rejected = assertThrows(RejectedDelivery.class, () -> RequestBody.read(new BlockingStream(), 1000,
                1024 * 1024, RequestBody.Deadline.in(1), budget));

        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertEquals(Rejection.BODY_TIMEOUT, rejected.reason());
        assertTrue(took.toMillis() >= 900 && took.toMillis() < 3_000, "cut off at the deadline, after " + took);
        assertFalse(Thread.interrupted(), "the request thread is not left interrupted");
        assertEquals(0, budget.used());
    }

    @Test
    void aBodyReadBeforeTheDeadlineLeavesNoInterruptBehind() throws Exception {
        var budget = new BodyBudget(64L * 1024 * 1024);
        for (int i = 0; i < 50; i++) {
            InputStream slow = new ByteArrayInputStream(bytes(10)) {
                @Override
                public synchronized int available() {
                    return 0;
                }
            };
            byte[] body = RequestBody.read(slow, 10, 1024, RequestBody.Deadline.in(1), budget);
            budget.give(body.length);
        }
        Thread.sleep(1_500);

        assertFalse(Thread.interrupted(), "no watchdog fired after its body was read");
        assertEquals(0, budget.used());
    }
}
