package dev.hookstile.ingest.control;

import dev.hookstile.provider.boundary.RejectedDelivery;
import dev.hookstile.provider.boundary.Rejection;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.function.LongSupplier;

/**
 * Reads a request body into exactly one array, refusing it as soon as it passes the limit: a declared length over
 * the limit is refused before a byte is read, a chunked body as soon as the limit is crossed, so a huge body never
 * fills the heap. A body read here blocks its thread, so it must also arrive by a deadline, checked after every read:
 * a sender trickling a byte a second holds the thread until then, not for as long as it likes. (Plain HTTP/1.x bodies
 * still arriving are gathered without a thread before they get here; what reaches this loop slowly is a request
 * offering a protocol upgrade, or an HTTP/2 stream.)
 */
public final class RequestBody {

    private RequestBody() {
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
                throw new RejectedDelivery(Rejection.BODY_TIMEOUT, "the body did not arrive within " + seconds
                        + " s; nothing was accepted");
            }
        }
    }

    public static byte[] read(InputStream in, long declaredLength, int limit) throws RejectedDelivery {
        return read(in, declaredLength, limit, Deadline.NONE);
    }

    public static byte[] read(InputStream in, long declaredLength, int limit, Deadline deadline) throws RejectedDelivery {
        checkDeclaredLength(declaredLength, limit);
        try {
            byte[] body;
            if (declaredLength >= 0) {
                body = readDeclared(in, (int) declaredLength, deadline);
                if (body.length < declaredLength) {
                    throw new RejectedDelivery(Rejection.INVALID_PAYLOAD, "the body ended after " + body.length
                            + " of the " + declaredLength + " bytes announced by Content-Length");
                }
            } else {
                body = readChunked(in, limit, deadline);
            }
            if (body.length == 0) {
                throw new RejectedDelivery(Rejection.INVALID_PAYLOAD, "the body is empty");
            }
            return body;
        } catch (IOException e) {
            throw new RejectedDelivery(Rejection.INVALID_PAYLOAD, "the body could not be read: " + e.getMessage());
        }
    }

    private static byte[] readDeclared(InputStream in, int length, Deadline deadline)
            throws IOException, RejectedDelivery {
        byte[] body = new byte[length];
        int read = 0;
        while (read < length) {
            int n = in.read(body, read, length - read);
            if (n < 0) {
                return Arrays.copyOf(body, read);
            }
            read += n;
            if (read < length) {
                deadline.check();
            }
        }
        return body;
    }

    private static byte[] readChunked(InputStream in, int limit, Deadline deadline)
            throws IOException, RejectedDelivery {
        var out = new ByteArrayOutputStream(Math.min(limit, 16 * 1024));
        byte[] buffer = new byte[8 * 1024];
        int total = 0;
        for (int n; (n = in.read(buffer)) != -1; ) {
            deadline.check();
            total += n;
            if (total > limit) {
                throw tooLarge(limit);
            }
            out.write(buffer, 0, n);
        }
        return out.toByteArray();
    }

    private static RejectedDelivery tooLarge(int limit) {
        return new RejectedDelivery(Rejection.PAYLOAD_TOO_LARGE, "the body exceeds the limit of " + limit + " bytes");
    }
}
