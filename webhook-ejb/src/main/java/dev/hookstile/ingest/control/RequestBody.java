package dev.hookstile.ingest.control;

import dev.hookstile.provider.control.RejectedDelivery;
import dev.hookstile.provider.control.Rejection;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads a request body into exactly one array, refusing it as soon as it passes the limit: a declared length over
 * the limit is refused before a byte is read, a chunked body as soon as the limit is crossed, so a huge body never
 * fills the heap.
 */
final class RequestBody {

    private RequestBody() {
    }

    static void checkDeclaredLength(long declaredLength, int limit) throws RejectedDelivery {
        if (declaredLength > limit) {
            throw tooLarge(limit);
        }
    }

    static byte[] read(InputStream in, long declaredLength, int limit) throws RejectedDelivery {
        checkDeclaredLength(declaredLength, limit);
        try {
            byte[] body;
            if (declaredLength >= 0) {
                body = in.readNBytes((int) declaredLength);
                if (body.length < declaredLength) {
                    throw new RejectedDelivery(Rejection.INVALID_PAYLOAD, "the body ended after " + body.length
                            + " of the " + declaredLength + " bytes announced by Content-Length");
                }
            } else {
                body = readChunked(in, limit);
            }
            if (body.length == 0) {
                throw new RejectedDelivery(Rejection.INVALID_PAYLOAD, "the body is empty");
            }
            return body;
        } catch (IOException e) {
            throw new RejectedDelivery(Rejection.INVALID_PAYLOAD, "the body could not be read: " + e.getMessage());
        }
    }

    private static byte[] readChunked(InputStream in, int limit) throws IOException, RejectedDelivery {
        var out = new ByteArrayOutputStream(Math.min(limit, 16 * 1024));
        byte[] buffer = new byte[8 * 1024];
        int total = 0;
        for (int n; (n = in.read(buffer)) != -1; ) {
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
