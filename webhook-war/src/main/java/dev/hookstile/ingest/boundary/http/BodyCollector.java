package dev.hookstile.ingest.boundary.http;

import dev.hookstile.ingest.boundary.BodyLimits;
import dev.hookstile.ingest.boundary.DeliveryMetrics;
import dev.hookstile.ingest.control.BodyBudget;
import dev.hookstile.ingest.Outcome;
import dev.hookstile.ingest.control.RequestBody;
import dev.hookstile.source.Rejection;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Gathers the body as it arrives, into a buffer grown only by what arrived and taken from the budget; dispatches to
 * the resource once, or answers once ({@code 408}, {@code 503}). Its share of the budget is given back when the
 * dispatched request ends, or when the exchange ends any other way (answered here, client gone): the share is
 * closed by whichever comes first, and a late read can take nothing more.
 */
final class BodyCollector implements ReadListener, AsyncListener {

    private final HttpServletRequest request;
    private final AsyncContext async;
    private final ServletInputStream in;
    /** The body's size as declared, or one past the limit when chunked (enough to know it is too large). */
    private final int expected;
    final BodyBudget.Share share;
    /** When the request arrived ({@link System#nanoTime()}): its answer is timed from there. */
    final long arrived;
    /** An operator API request's body: neither counted nor timed as a delivery's. */
    private final boolean operator;
    private final AtomicBoolean finished = new AtomicBoolean();
    private byte[] body = BodyBuffer.NO_BODY;
    int size;
    volatile ScheduledFuture<?> deadline;

    private final BodyLimits limits;
    private final BodyRefusals refusals;
    private final DeliveryMetrics metrics;

    BodyCollector(HttpServletRequest request, AsyncContext async, long declared, long arrived, boolean operator,
                  int maxBytes, BodyLimits limits, BodyRefusals refusals, DeliveryMetrics metrics) throws IOException {
        this.request = request;
        this.arrived = arrived;
        this.async = async;
        this.in = request.getInputStream();
        this.operator = operator;
        this.expected = declared >= 0 ? (int) declared : maxBytes + 1;
        this.limits = limits;
        this.share = limits.budget().share();
        this.refusals = refusals;
        this.metrics = metrics;
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
        body = BodyBuffer.NO_BODY;
        try {
            refusals.refuse(operator, request, (HttpServletResponse) async.getResponse(), reason, detail);
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
            request.setAttribute(BodyBuffer.BODY, body);
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
