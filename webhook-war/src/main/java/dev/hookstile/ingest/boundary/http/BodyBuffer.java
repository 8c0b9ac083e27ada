package dev.hookstile.ingest.boundary.http;

import dev.hookstile.ingest.boundary.BodyLimits;
import dev.hookstile.ingest.boundary.DeliveryMetrics;
import dev.hookstile.ingest.control.BodyBudget;
import dev.hookstile.ingest.Outcome;
import dev.hookstile.ingest.control.RequestBody;
import dev.hookstile.metrics.boundary.Metrics;
import dev.hookstile.platform.boundary.OwnThreads;
import dev.hookstile.source.RejectedDelivery;
import dev.hookstile.source.Rejection;
import dev.hookstile.source.boundary.Sources;
import jakarta.inject.Inject;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

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
 * <p>Which way a body is read is decided here; the non-blocking read itself, one state machine (the listener's
 * callbacks, growth against the budget, the deadline, the one answer), is {@link BodyCollector}, and what a refused
 * body costs (counted, answered) is {@link BodyRefusals}.
 */
public class BodyBuffer extends HttpFilter {

    /** An operator request's body (a sign-in, a replay's filter) is at most this large. */
    static final int OPERATOR_MAX_BYTES = 64 * 1024;

    static final String BODY = BodyBuffer.class.getName() + ".body";
    private static final String COLLECTOR = BodyBuffer.class.getName() + ".collector";
    static final byte[] NO_BODY = new byte[0];
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

    private BodyRefusals refusals;

    @Override
    public void init() {
        refusals = new BodyRefusals(metrics, registry);
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
            var collector = (BodyCollector) request.getAttribute(COLLECTOR);
            try {
                byte[] body = (byte[]) request.getAttribute(BODY);
                if (operator && collector != null && collector.size > OPERATOR_MAX_BYTES) {
                    refusals.refuse(true, request, response, Rejection.PAYLOAD_TOO_LARGE,
                            BodyRefusals.tooLarge(OPERATOR_MAX_BYTES));
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
            refusals.refuse(true, request, response, Rejection.PAYLOAD_TOO_LARGE,
                    BodyRefusals.tooLarge(OPERATOR_MAX_BYTES));
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
        var collector = new BodyCollector(request, async, declared, arrived, operator, maxBytes(operator, limits),
                limits, refusals, metrics);
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
            refusals.refuse(operator(request), request, response, Rejection.BODY_BUFFERS_FULL, detail);
            return;
        }
        BodyBudget budget = limits.budget();
        byte[] body;
        try {
            body = RequestBody.read(request.getInputStream(), declared, maxBytes(operator(request), limits),
                    RequestBody.Deadline.in(limits.timeoutSeconds()), budget);
        } catch (RejectedDelivery rejected) {
            refusals.refuse(operator(request), request, response, rejected.reason(), rejected.detail());
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
        String name = BodyRefusals.sourceName(request);
        return name != null && name.indexOf('%') < 0 && name.indexOf(';') < 0 && name.indexOf('/') < 0
                && sources.find(name).isEmpty();
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
}
