package dev.hookstile.trace;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.StatusCode;

/**
 * One step of an event's way (its receive, its hand-off, a try, a forwarding): the {@code traceparent} of what it
 * leads to, and, when spans are exported, the OpenTelemetry span it records. When nothing is exported a step is
 * only the context it passes on, unchanged: no span is made, no id drawn.
 */
public final class TraceSpan {

    private String traceParent;
    private final Span span;
    private final boolean startsOnDemand;

    private TraceSpan(String traceParent, Span span, boolean startsOnDemand) {
        this.traceParent = traceParent;
        this.span = span;
        this.startsOnDemand = startsOnDemand;
    }

    /** A step that records nothing and passes this context on. */
    public static TraceSpan unexported(String traceParent) {
        return new TraceSpan(traceParent, null, false);
    }

    /**
     * A step that records nothing and starts a trace when something asks for its context: a delivery without one
     * that turns out a duplicate, or is refused, never draws an id. For the thread of one request only.
     */
    public static TraceSpan unexportedNewTrace() {
        return new TraceSpan(null, null, true);
    }

    /** A step recorded by this span, whose context it passes on. */
    public static TraceSpan of(Span span) {
        SpanContext context = span.getSpanContext();
        return new TraceSpan("00-" + context.getTraceId() + "-" + context.getSpanId() + "-"
                + context.getTraceFlags().asHex(), span, false);
    }

    /** The {@code traceparent} of what follows this step. */
    public String traceParent() {
        if (traceParent == null && startsOnDemand) {
            traceParent = TraceParent.start().header();
        }
        return traceParent;
    }

    /** The trace's id, for log lines. */
    public String traceId() {
        return TraceParent.traceIdOf(traceParent());
    }

    /** The span, or {@code null} when nothing is exported. */
    public Span span() {
        return span;
    }

    public TraceSpan set(String attribute, String value) {
        if (span != null && value != null) {
            span.setAttribute(attribute, value);
        }
        return this;
    }

    public TraceSpan set(String attribute, long value) {
        if (span != null) {
            span.setAttribute(attribute, value);
        }
        return this;
    }

    /** The step failed: why, in words Hookstile wrote or made printable. */
    public TraceSpan failed(String description) {
        if (span != null) {
            span.setStatus(StatusCode.ERROR, description);
        }
        return this;
    }

    public void end() {
        if (span != null) {
            span.end();
        }
    }
}
