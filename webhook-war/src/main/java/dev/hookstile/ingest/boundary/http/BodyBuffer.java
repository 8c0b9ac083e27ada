package dev.hookstile.ingest.boundary.http;

import dev.hookstile.ingest.boundary.BodyLimits;
import dev.hookstile.ingest.boundary.DeliveryMetrics;
import dev.hookstile.ingest.control.BodyBudget;
import dev.hookstile.ingest.Outcome;
import dev.hookstile.ingest.control.RequestBody;
import dev.hookstile.metrics.boundary.Counter;
import dev.hookstile.metrics.boundary.Metrics;
import dev.hookstile.platform.boundary.OwnThreads;
import dev.hookstile.web.boundary.Problems;
import dev.hookstile.web.boundary.RefusedRequests;
import dev.hookstile.source.RejectedDelivery;
import dev.hookstile.source.Rejection;
import dev.hookstile.source.boundary.Sources;
import jakarta.inject.Inject;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Reads a webhook's body without holding a thread while it arrives, then hands the whole body to
 * {@link WebhooksResource}. A sender that trickles its body (a byte a second, a thousand connections: slowloris)
 * would otherwise hold one request thread each and starve every well-behaved sender; here it holds only a socket,
 * and it is cut off with {@code 408} when its body has not arrived within
 * {@code hookstile.ingest.body-timeout-seconds}.
 *
 * <p>Nothing is allocated for what a request only declares: the buffer grows as bytes arrive, each growth taken from
 * the {@link BodyBudget} every buffered request byte shares ({@code hookstile.ingest.buffer-budget-bytes}); a body
 * that would pass it is answered {@code 503} with {@code Retry-After} at once and its connection closed. A request to
 * an unknown source is not buffered at all: the resource refuses it ({@code 404}) before reading a byte.
 *
 * <p>At most {@code hookstile.ingest.max-body-bytes} + 1 bytes are buffered: a larger body is passed on cut there, and
 * the resource refuses it with {@code 413} as it does a declared length over the limit.
 *
 * <p>The operator API's bodies ({@code /api/*}: the console's sign-in, replays) are read here the same way, under the
 * same deadline, budget and limit on blocked readers, with a limit of their own ({@value #OPERATOR_MAX_BYTES} bytes,
 * {@code 413} beyond it, at once): one slow sign-in must cost a socket, not a request thread, like one slow webhook.
 * This filter is mapped in {@code web.xml} after the operator API's guard ({@code OperatorAuthentication}), so a
 * client the guard refuses (an address outside the allowlist, a sign-in from another site's page) has no byte of its
 * body read. Refused operator bodies are counted in {@code hookstile_operator_bodies_refused_total{reason}}, not as
 * deliveries.
 *
 * <p>Longer than 300 lines because a non-blocking read is one state machine (the listener's callbacks, growth against
 * the budget, the deadline, the one answer) that is safest read in one place: split, each part would need the
 * others' state.
 */
public class BodyBuffer extends HttpFilter {

    /** An operator request's body (a sign-in, a replay's filter) is at most this large. */
    static final int OPERATOR_MAX_BYTES = 64 * 1024;

    private static final String BODY = BodyBuffer.class.getName() + ".body";
    private static final String COLLECTOR = BodyBuffer.class.getName() + ".collector";
    private static final byte[] NO_BODY = new byte[0];
    private static final String WEBHOOKS = "/webhooks/";
    /** What the resource answered a delivery ({@link Outcome}), for timing its answer here. */
    static final String ANSWERED = BodyBuffer.class.getName() + ".answered";

    /**
     * The body deadline, kept here rather than as the AsyncContext's timeout: that timer is not reliably disarmed by
     * the dispatch, and when it fired later the container completed whatever request the connection then carried
     * (about one keep-alive request in fifty lost its answer in the integration tests). The filter's own, started
     * with it and stopped when the container takes it out of service: a timer thread left running after an undeploy
     * would hold the whole deployment's classes in memory for the life of the server.
     */
    private ScheduledThreadPoolExecutor deadlines;

    /**
     * Request threads that may wait for a body at once (the request pool, shared with {@code /api} and
     * {@code /health}, has 200). Each waits at most the body deadline, but 300 stalled upgrade requests reopened as
     * soon as they were cut off kept the whole pool waiting (HostileConnectionsFaultIT); beyond this, {@code 503} at
     * once. A body that has fully arrived takes no place here.
     */
    static final int BLOCKING_READERS = 32;
    private static final Semaphore READERS = new Semaphore(BLOCKING_READERS);

    @Inject
    BodyLimits limits;

    @Inject
    DeliveryMetrics metrics;

    @Inject
    Sources sources;

    @Inject
    Metrics registry;

    private final Map<Rejection, Counter> operatorRefused = new EnumMap<>(Rejection.class);

    @Override
    public void init() {
        var family = registry.counter("hookstile_operator_bodies_refused_total",
                "Operator API request bodies refused (too slow, too large, no room left), by reason", "reason");
        for (Rejection reason : new Rejection[] {Rejection.BODY_TIMEOUT, Rejection.BODY_BUFFERS_FULL,
                Rejection.PAYLOAD_TOO_LARGE, Rejection.INVALID_PAYLOAD}) {
            operatorRefused.put(reason, family.labels(reason.slug()));
        }
        deadlines = deadlines();
    }

    @Override
    public void destroy() {
        // Bodies still arriving are cut off with the deployment; their connections go with it.
        deadlines.shutdownNow();
    }

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        boolean operator = operator(request);
        if (request.getDispatcherType() == DispatcherType.ASYNC) {
            var collector = (Collector) request.getAttribute(COLLECTOR);
            try {
                byte[] body = (byte[]) request.getAttribute(BODY);
                if (operator && collector != null && collector.size > OPERATOR_MAX_BYTES) {
                    refused(true, request, Rejection.PAYLOAD_TOO_LARGE, tooLarge());
                    refuse(request, response, Rejection.PAYLOAD_TOO_LARGE, tooLarge());
                    return;
                }
                chain.doFilter(body == null ? request : new BufferedRequest(request, body, collector.size), response);
            } finally {
                if (collector != null) {
                    collector.share.close();
                    if (!operator) {
                        acked(request, response, collector.arrived);
                    }
                }
            }
            return;
        }
        if (operator) {
            if (request.getContentLengthLong() > 0 || request.getHeader("Transfer-Encoding") != null) {
                receive(request, response, chain, System.nanoTime());
            } else {
                chain.doFilter(request, response);
            }
            return;
        }
        if (!"POST".equals(request.getMethod())) {
            // A handshake (Meta's GET), not a delivery: not timed.
            chain.doFilter(request, response);
            return;
        }
        long arrived = System.nanoTime();
        try {
            receive(request, response, chain, arrived);
        } finally {
            if (!request.isAsyncStarted()) {
                acked(request, response, arrived);
            }
        }
    }

    /** An operator API request ({@code /api/*}), not a webhook: the path as the container routed it. */
    private static boolean operator(HttpServletRequest request) {
        String servlet = request.getServletPath();
        String info = request.getPathInfo();
        String path = info == null ? servlet : servlet.isEmpty() ? info : servlet + info;
        return path.equals("/api") || path.startsWith("/api/");
    }

    private static int maxBytes(boolean operator, BodyLimits limits) {
        return operator ? OPERATOR_MAX_BYTES : limits.maxBytes();
    }

    private static String tooLarge() {
        return "an operator API request body is at most " + OPERATOR_MAX_BYTES + " bytes; nothing was done";
    }

    /** Counts a refused body: a delivery's under its source, an operator request's apart from deliveries. */
    private void refused(boolean operator, HttpServletRequest request, Rejection reason, String detail) {
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

    /**
     * Times a delivery's answer: as the resource said what it was ({@link #ANSWERED}), else by its status (a
     * refusal); an answer that is neither (Slack's URL verification) is not a delivery's and is not timed.
     */
    private void acked(HttpServletRequest request, HttpServletResponse response, long arrived) {
        Outcome outcome = request.getAttribute(ANSWERED) instanceof Outcome said
                ? said
                : response.getStatus() == 503 ? Outcome.UNAVAILABLE
                : response.getStatus() >= 400 ? Outcome.REJECTED : null;
        if (outcome != null) {
            metrics.answered(outcome, arrived);
        }
    }

    private void receive(HttpServletRequest request, HttpServletResponse response, FilterChain chain, long arrived)
            throws IOException, ServletException {
        boolean operator = operator(request);
        if (operator && request.getContentLengthLong() > OPERATOR_MAX_BYTES) {
            refused(true, request, Rejection.PAYLOAD_TOO_LARGE, tooLarge());
            refuse(request, response, Rejection.PAYLOAD_TOO_LARGE, tooLarge());
            return;
        }
        if (!operator && request.getContentLengthLong() > limits.maxBytes()) {
            // Refused from its declared length alone, or not a delivery: nothing to wait for.
            chain.doFilter(request, response);
            return;
        }
        long declared = request.getContentLengthLong();
        if (declared >= 0 && request.getInputStream().available() >= declared) {
            // The whole body came with the headers (the usual case): reading it cannot block, and the async round
            // trip would cost more than the request (duplicates answered at a third of the rate, measured).
            chain.doFilter(request, response);
            return;
        }
        if (!operator && unknownSource(request)) {
            // Refused before the body is read: nothing to buffer or wait for, and the unread rest ends the connection.
            response.setHeader("Connection", "close");
            chain.doFilter(new BufferedRequest(request, NO_BODY, 0), response);
            return;
        }
        if (!request.isAsyncSupported() || !plainHttp1(request)) {
            readBlocking(request, response, chain, declared);
            return;
        }
        AsyncContext async = request.startAsync(request, response);
        async.setTimeout(0);
        var collector = new Collector(request, async, declared, arrived);
        async.addListener(collector);
        request.setAttribute(COLLECTOR, collector);
        collector.deadline = deadlines.schedule(collector::expire, limits.timeoutSeconds(), TimeUnit.SECONDS);
        ServletInputStream in = request.getInputStream();
        in.setReadListener(collector);
    }

    /**
     * A body that cannot be gathered without a thread (an upgrade offered, HTTP/2) is read here, before JAX-RS touches
     * the stream, with the same deadline: a read still blocked at the deadline is interrupted
     * ({@link RequestBody}), so such a request holds its thread for at most the body timeout, and at most
     * {@link #BLOCKING_READERS} such requests wait at once.
     */
    private void readBlocking(HttpServletRequest request, HttpServletResponse response, FilterChain chain,
                              long declared) throws IOException, ServletException {
        if (!READERS.tryAcquire()) {
            String detail = "too many request bodies are still arriving on connections offering a protocol"
                    + " upgrade; nothing was accepted, retry later";
            refused(operator(request), request, Rejection.BODY_BUFFERS_FULL, detail);
            refuse(request, response, Rejection.BODY_BUFFERS_FULL, detail);
            return;
        }
        BodyBudget budget = limits.budget();
        byte[] body;
        try {
            body = RequestBody.read(request.getInputStream(), declared, maxBytes(operator(request), limits),
                    RequestBody.Deadline.in(limits.timeoutSeconds()), budget);
        } catch (RejectedDelivery rejected) {
            refused(operator(request), request, rejected.reason(), rejected.detail());
            refuse(request, response, rejected.reason(), rejected.detail());
            return;
        } finally {
            READERS.release();
        }
        try {
            chain.doFilter(new BufferedRequest(request, body, body.length), response);
        } finally {
            budget.give(body.length);
        }
    }

    /** The source named in the path is certainly not configured (an encoded name is left to the resource). */
    private boolean unknownSource(HttpServletRequest request) {
        String name = sourceName(request);
        return name != null && name.indexOf('%') < 0 && name.indexOf(';') < 0 && name.indexOf('/') < 0
                && sources.find(name).isEmpty();
    }

    /**
     * The path's source segment as sent, or {@code null}: for counting a refusal under its source, which
     * {@link DeliveryMetrics} does only when it names a configured one.
     */
    private static String sourceName(HttpServletRequest request) {
        String uri = request.getRequestURI();
        int start = uri.indexOf(WEBHOOKS, request.getContextPath().length());
        return start < 0 ? null : uri.substring(start + WEBHOOKS.length());
    }

    /** A problem answered before JAX-RS: the body was not read, so the connection ends with it. */
    private void refuse(HttpServletRequest request, HttpServletResponse response, Rejection reason, String detail) {
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

    /**
     * Only plain HTTP/1.x is read without blocking. Grizzly never hands the body of a request offering a protocol
     * upgrade (the JDK's HttpClient offers h2c by default) to a ReadListener, and its HTTP/2 streams broke under
     * non-blocking reads (ClassCastException, connections dropped): those are read the blocking way, as before.
     */
    private static boolean plainHttp1(HttpServletRequest request) {
        return request.getProtocol().startsWith("HTTP/1.") && request.getHeader("Upgrade") == null;
    }

    private static ScheduledThreadPoolExecutor deadlines() {
        var executor = new ScheduledThreadPoolExecutor(1, OwnThreads.named("hookstile-body-deadlines"));
        executor.setRemoveOnCancelPolicy(true);
        return executor;
    }

    /**
     * Gathers the body as it arrives, into a buffer grown only by what arrived and taken from the budget; dispatches to
     * the resource once, or answers once ({@code 408}, {@code 503}). Its share of the budget is given back when the
     * dispatched request ends, or when the exchange ends any other way (answered here, client gone): the share is
     * closed by whichever comes first, and a late read can take nothing more.
     */
    private final class Collector implements ReadListener, AsyncListener {

        private final HttpServletRequest request;
        private final AsyncContext async;
        private final ServletInputStream in;
        /** The body's size as declared, or one past the limit when chunked (enough to know it is too large). */
        private final int expected;
        private final BodyBudget.Share share;
        /** When the request arrived ({@link System#nanoTime()}): its answer is timed from there. */
        private final long arrived;
        /** An operator API request's body: neither counted nor timed as a delivery's. */
        private final boolean operator;
        private final AtomicBoolean finished = new AtomicBoolean();
        private byte[] body = NO_BODY;
        private int size;
        private volatile ScheduledFuture<?> deadline;

        Collector(HttpServletRequest request, AsyncContext async, long declared, long arrived) throws IOException {
            this.request = request;
            this.arrived = arrived;
            this.async = async;
            this.in = request.getInputStream();
            this.operator = operator(request);
            this.expected = declared >= 0 ? (int) declared : maxBytes(operator, limits) + 1;
            this.share = limits.budget().share();
        }

        @Override
        public void onDataAvailable() throws IOException {
            while (!finished.get() && in.isReady()) {
                if (size == body.length && !grow()) {
                    return;
                }
                int n = in.read(body, size, body.length - size);
                if (n < 0) {
                    dispatch();
                    return;
                }
                size += n;
                if (size >= expected) {
                    dispatch();
                    return;
                }
            }
            // Grizzly does not call onAllDataRead when the whole body was already read here.
            if (in.isFinished()) {
                dispatch();
            }
        }

        /** Room for more of the body, doubling up to what is expected; false (and answered 503) beyond the budget. */
        private boolean grow() {
            int grown = (int) Math.min(expected, Math.max(RequestBody.FIRST_BUFFER, 2L * body.length));
            if (!share.grow(grown)) {
                overBudget();
                return false;
            }
            byte[] old = body;
            body = Arrays.copyOf(old, grown);
            share.shrink(old.length);
            return true;
        }

        @Override
        public void onAllDataRead() {
            dispatch();
        }

        @Override
        public void onError(Throwable failure) {
            if (finished.compareAndSet(false, true)) {
                cancelDeadline();
                share.close();
                async.complete();
            }
        }

        /** The body did not arrive in time: {@code 408}, and the connection is closed. */
        void expire() {
            answer(Rejection.BODY_TIMEOUT, "the body did not arrive within " + limits.timeoutSeconds()
                    + " s; nothing was accepted");
        }

        private void overBudget() {
            answer(Rejection.BODY_BUFFERS_FULL, "the bodies being received fill the " + limits.budget().limit()
                    + " bytes set aside for them; nothing was accepted, retry later");
        }

        private void answer(Rejection reason, String detail) {
            if (!finished.compareAndSet(false, true)) {
                return;
            }
            cancelDeadline();
            share.close();
            body = NO_BODY;
            try {
                refused(operator, request, reason, detail);
                refuse(request, (HttpServletResponse) async.getResponse(), reason, detail);
            } finally {
                async.complete();
                if (!operator) {
                    metrics.answered(reason.status() == 503 ? Outcome.UNAVAILABLE : Outcome.REJECTED, arrived);
                }
            }
        }

        private void cancelDeadline() {
            ScheduledFuture<?> pending = deadline;
            if (pending != null) {
                pending.cancel(false);
            }
        }

        private void dispatch() {
            if (finished.compareAndSet(false, true)) {
                cancelDeadline();
                request.setAttribute(BODY, body);
                async.dispatch();
            }
        }

        @Override
        public void onComplete(AsyncEvent event) {
            share.close();
        }

        @Override
        public void onTimeout(AsyncEvent event) {
            share.close();
        }

        @Override
        public void onError(AsyncEvent event) {
            share.close();
        }

        @Override
        public void onStartAsync(AsyncEvent event) {
            // the dispatched request does not start another asynchronous cycle
        }
    }
}
