package dev.hookstile.web.boundary;

import dev.hookstile.refusal.Refusal;
import dev.hookstile.source.Rejection;
import jakarta.servlet.http.HttpServletRequest;

import java.time.Instant;
import java.util.Collections;
import java.util.function.Supplier;

/** What is kept of a refused delivery's request, built only when the refusal log keeps it as an example. */
public final class RefusedRequests {

    private RefusedRequests() {
    }

    /**
     * @param body the body as read whole, or {@code null} (then its declared size is kept, without a hash)
     */
    public static Supplier<Refusal> of(HttpServletRequest request, String source, Rejection reason, String detail,
                                       byte[] body) {
        // Called at once by the refusal log, and only for a refusal it keeps: a refusal not kept costs no clock read.
        return () -> Refusal.example(Instant.now(), source, reason, detail, request.getRemoteAddr(),
                Collections.list(request.getHeaderNames()), request::getHeader, request.getContentLengthLong(), body);
    }
}
