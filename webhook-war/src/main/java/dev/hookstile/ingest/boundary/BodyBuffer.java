package dev.hookstile.ingest.boundary;

import dev.hookstile.ingest.boundary.BodyLimits;
import dev.hookstile.ingest.boundary.DeliveryMetrics;
import dev.hookstile.platform.boundary.Problems;
import dev.hookstile.provider.boundary.Rejection;
import jakarta.inject.Inject;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ScheduledFuture;
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
 * <p>At most {@code hookstile.ingest.max-body-bytes} + 1 bytes are buffered: a larger body is passed on cut there, and
 * the resource refuses it with {@code 413} as it does a declared length over the limit.
 */
@WebFilter(urlPatterns = "/webhooks/*", asyncSupported = true,
        dispatcherTypes = {DispatcherType.REQUEST, DispatcherType.ASYNC})
public class BodyBuffer extends HttpFilter {

    private static final String BODY = BodyBuffer.class.getName() + ".body";

    /**
     * The body deadline, kept here rather than as the AsyncContext's timeout: that timer is not reliably disarmed by
     * the dispatch, and when it fired later the container completed whatever request the connection then carried
     * (about one keep-alive request in fifty lost its answer in the integration tests).
     */
    private static final ScheduledThreadPoolExecutor DEADLINES = deadlines();

    @Inject
    BodyLimits limits;

    @Inject
    DeliveryMetrics metrics;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (request.getDispatcherType() == DispatcherType.ASYNC) {
            byte[] body = (byte[]) request.getAttribute(BODY);
            chain.doFilter(body == null ? request : new Buffered(request, body), response);
            return;
        }
        if (!"POST".equals(request.getMethod()) || request.getContentLengthLong() > limits.maxBytes()
                || !request.isAsyncSupported() || !plainHttp1(request)) {
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
        AsyncContext async = request.startAsync(request, response);
        async.setTimeout(0);
        var collector = new Collector(request, async);
        collector.deadline = DEADLINES.schedule(collector::expire, limits.timeoutSeconds(), TimeUnit.SECONDS);
        ServletInputStream in = request.getInputStream();
        in.setReadListener(collector);
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
        var executor = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, "hookstile-body-deadlines");
            thread.setDaemon(true);
            return thread;
        });
        executor.setRemoveOnCancelPolicy(true);
        return executor;
    }

    /** Gathers the body as it arrives; dispatches to the resource once, or answers 408 once. */
    private final class Collector implements ReadListener {

        private final HttpServletRequest request;
        private final AsyncContext async;
        private final ServletInputStream in;
        private final ByteArrayOutputStream body;
        private final byte[] chunk = new byte[8192];
        private final AtomicBoolean finished = new AtomicBoolean();
        private volatile ScheduledFuture<?> deadline;

        Collector(HttpServletRequest request, AsyncContext async) throws IOException {
            this.request = request;
            this.async = async;
            this.in = request.getInputStream();
            long declared = request.getContentLengthLong();
            this.body = new ByteArrayOutputStream(declared > 0 ? (int) declared : 1024);
        }

        @Override
        public void onDataAvailable() throws IOException {
            while (!finished.get() && in.isReady()) {
                int n = in.read(chunk);
                if (n < 0) {
                    dispatch();
                    return;
                }
                body.write(chunk, 0, n);
                if (body.size() > limits.maxBytes()) {
                    dispatch();
                    return;
                }
            }
            // Grizzly does not call onAllDataRead when the whole body was already read here.
            if (in.isFinished()) {
                dispatch();
            }
        }

        @Override
        public void onAllDataRead() {
            dispatch();
        }

        @Override
        public void onError(Throwable failure) {
            if (finished.compareAndSet(false, true)) {
                cancelDeadline();
                async.complete();
            }
        }

        /** The body did not arrive in time: {@code 408}, and the connection is closed. */
        void expire() {
            if (!finished.compareAndSet(false, true)) {
                return;
            }
            try {
                metrics.rejected(Rejection.BODY_TIMEOUT);
                var response = (HttpServletResponse) async.getResponse();
                response.setStatus(Rejection.BODY_TIMEOUT.status());
                response.setHeader("Connection", "close");
                response.setContentType(Problems.MEDIA_TYPE);
                response.setCharacterEncoding(StandardCharsets.UTF_8.name());
                response.getWriter().write(Problems.json(Rejection.BODY_TIMEOUT.status(),
                        Rejection.BODY_TIMEOUT.slug(), Rejection.BODY_TIMEOUT.title(), "the body did not arrive within "
                                + limits.timeoutSeconds() + " s; nothing was accepted", request.getRequestURI()));
            } catch (IOException | RuntimeException gone) {
                // the client went away meanwhile: nothing to answer
            } finally {
                async.complete();
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
                request.setAttribute(BODY, body.toByteArray());
                async.dispatch();
            }
        }
    }

    /** The request as the resource sees it: the body comes from memory, already complete. */
    private static final class Buffered extends HttpServletRequestWrapper {

        private final byte[] body;

        Buffered(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public ServletInputStream getInputStream() {
            var bytes = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public int read() {
                    return bytes.read();
                }

                @Override
                public int read(byte[] buffer, int offset, int length) {
                    return bytes.read(buffer, offset, length);
                }

                @Override
                public boolean isFinished() {
                    return bytes.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new IllegalStateException("the body is already read");
                }
            };
        }

        @Override
        public BufferedReader getReader() {
            return new BufferedReader(new InputStreamReader(getInputStream(), StandardCharsets.UTF_8));
        }
    }
}
