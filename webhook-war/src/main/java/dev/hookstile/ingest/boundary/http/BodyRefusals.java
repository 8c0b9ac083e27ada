package dev.hookstile.ingest.boundary.http;

import dev.hookstile.ingest.boundary.DeliveryMetrics;
import dev.hookstile.metrics.boundary.Counter;
import dev.hookstile.metrics.boundary.Metrics;
import dev.hookstile.web.boundary.Problems;
import dev.hookstile.web.boundary.RefusedRequests;
import dev.hookstile.source.Rejection;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;

/**
 * A body {@link BodyBuffer} refuses (too slow, too large, no room left in the budget): counted, a delivery's under
 * its source and an operator request's apart from deliveries, and answered with a problem at once. The body was not
 * read, so the connection ends with the answer.
 */
final class BodyRefusals {

    private static final String WEBHOOKS = "/webhooks/";

    private final DeliveryMetrics metrics;
    private final Map<Rejection, Counter> operatorRefused = new EnumMap<>(Rejection.class);

    BodyRefusals(DeliveryMetrics metrics, Metrics registry) {
        this.metrics = metrics;
        var family = registry.counter("hookstile_operator_bodies_refused_total",
                "Operator API request bodies refused (too slow, too large, no room left), by reason", "reason");
        for (Rejection reason : new Rejection[] {Rejection.BODY_TIMEOUT, Rejection.BODY_BUFFERS_FULL,
                Rejection.PAYLOAD_TOO_LARGE, Rejection.INVALID_PAYLOAD}) {
            operatorRefused.put(reason, family.labels(reason.slug()));
        }
    }

    /** Counts the refusal and answers it. */
    void refuse(boolean operator, HttpServletRequest request, HttpServletResponse response, Rejection reason,
                String detail) {
        count(operator, request, reason, detail);
        answer(request, response, reason, detail);
    }

    private void count(boolean operator, HttpServletRequest request, Rejection reason, String detail) {
        if (operator) {
            Counter counter = operatorRefused.get(reason);
            if (counter != null) {
                counter.inc();
            }
        } else {
            String source = sourceName(request);
            // The body was not read whole: its declared size is kept, no hash.
            metrics.rejected(source, reason, RefusedRequests.of(request, source, reason, detail, null));
        }
    }

    /** A problem answered before JAX-RS. */
    private static void answer(HttpServletRequest request, HttpServletResponse response, Rejection reason,
                               String detail) {
        try {
            response.setStatus(reason.status());
            response.setHeader("Connection", "close");
            if (reason.status() == 503) {
                response.setHeader("Retry-After", Problems.RETRY_AFTER_SECONDS);
            }
            response.setContentType(Problems.MEDIA_TYPE);
            response.setCharacterEncoding(StandardCharsets.UTF_8.name());
            response.getWriter().write(Problems.json(reason.status(), reason.slug(), reason.title(), detail,
                    request.getRequestURI()));
        } catch (IOException | RuntimeException gone) {
            // the client went away meanwhile: nothing to answer
        }
    }

    static String tooLarge(int operatorMaxBytes) {
        return "an operator API request body is at most " + operatorMaxBytes + " bytes; nothing was done";
    }

    /**
     * The path's source segment as sent, or {@code null}: for counting a refusal under its source, which
     * {@link DeliveryMetrics} does only when it names a configured one.
     */
    static String sourceName(HttpServletRequest request) {
        String uri = request.getRequestURI();
        int start = uri.indexOf(WEBHOOKS, request.getContextPath().length());
        return start < 0 ? null : uri.substring(start + WEBHOOKS.length());
    }
}
