package dev.hookstile.trace.boundary;

import dev.hookstile.api.WebhookEvent;
import dev.hookstile.trace.TraceParent;
import dev.hookstile.trace.TraceSpan;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.net.URI;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The steps of an event's way as one trace. Each step continues the context it is given (a delivery's
 * {@code traceparent}, or what the queue's message, the outbox row carries) and passes on its own.
 *
 * <p>Spans are exported only when the container's OpenTelemetry SDK is on for the application, which
 * {@link ExportWhenConfigured} does when an OTLP endpoint is configured ({@code OTEL_EXPORTER_OTLP_ENDPOINT}); the
 * SDK reads the other {@code OTEL_*} variables itself. Otherwise no span is built and a step passes on the context it
 * was given: the cost on the hot path is a parse of the header, or a new trace id for a delivery without one
 * (docs/benchmarks.md).
 */
@ApplicationScoped
public class Tracing {

    private static final Logger LOG = Logger.getLogger(Tracing.class.getName());

    /** The instrumentation scope of Hookstile's spans. */
    public static final String SCOPE = "dev.hookstile";

    @Inject
    Instance<OpenTelemetry> telemetry;

    /** The SDK's own switch, which {@link ExportWhenConfigured} sets when an OTLP endpoint is configured. */
    @Inject
    @ConfigProperty(name = ExportWhenConfigured.SDK_DISABLED, defaultValue = "true")
    boolean sdkDisabled;

    /** {@code null} when nothing is exported. */
    private Tracer tracer;

    public Tracing() {
    }

    /** Spans exported through this OpenTelemetry; {@code null} for none. */
    public static Tracing through(OpenTelemetry openTelemetry) {
        var tracing = new Tracing();
        tracing.tracer = openTelemetry == null ? null : openTelemetry.getTracer(SCOPE);
        return tracing;
    }

    @PostConstruct
    void init() {
        if (sdkDisabled) {
            return;
        }
        try {
            tracer = telemetry.get().getTracer(SCOPE);
            LOG.info("Tracing: spans are exported through the container's OpenTelemetry SDK (OTEL_* settings)");
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Tracing: the container's OpenTelemetry SDK is not available; trace context is"
                    + " passed on, no span is exported", e);
        }
    }

    /** Whether spans are exported. */
    public boolean exporting() {
        return tracer != null;
    }

    /**
     * A delivery to a source: continues the sender's trace when its {@code traceparent} is valid, otherwise starts
     * one.
     */
    public TraceSpan receive(String traceParent, String source) {
        TraceParent incoming = TraceParent.parse(traceParent);
        if (tracer == null) {
            return incoming == null ? TraceSpan.unexportedNewTrace() : TraceSpan.unexported(incoming.header());
        }
        SpanBuilder span = tracer.spanBuilder("receive " + source).setSpanKind(SpanKind.SERVER)
                .setAttribute("http.request.method", "POST")
                .setAttribute("http.route", "/webhooks/{source}")
                .setAttribute("hookstile.source", source);
        return TraceSpan.of((incoming == null ? span.setNoParent() : span.setParent(remote(incoming))).startSpan());
    }

    /** The durable hand-off of a delivery's events to the queue: the parent of their tries. */
    public TraceSpan handOff(TraceSpan receive, String source) {
        if (tracer == null || receive.span() == null) {
            return receive;
        }
        return TraceSpan.of(tracer.spanBuilder("hand-off " + source).setSpanKind(SpanKind.PRODUCER)
                .setParent(Context.root().with(receive.span()))
                .setAttribute("messaging.system", "activemq")
                .setAttribute("messaging.operation", "publish")
                .setAttribute("hookstile.source", source)
                .startSpan());
    }

    /** One try of this event, under the context its message carried. */
    public TraceSpan tryOf(WebhookEvent event) {
        return tryOf(event.traceParent(), event.source(), event.eventId(), event.type());
    }

    /**
     * An operator's replay of an event: a trace of its own, which the replayed tries continue. Ended at once; its
     * span marks when the operator asked.
     */
    public TraceSpan replay(String source, String eventId) {
        if (tracer == null) {
            return TraceSpan.unexportedNewTrace();
        }
        return TraceSpan.of(tracer.spanBuilder("replay " + source).setSpanKind(SpanKind.INTERNAL).setNoParent()
                .setAttribute("hookstile.source", source)
                .setAttribute("hookstile.event_id", eventId)
                .startSpan());
    }

    /**
     * One try of an event, under the context its message carried; an event queued without one (by a replay, or
     * before this version) starts a trace of its own.
     */
    public TraceSpan tryOf(String traceParent, String source, String eventId, String type) {
        if (tracer == null) {
            // Written by ingest, which checked it (a message of another producer is never read): passed on as it is.
            return traceParent == null ? TraceSpan.unexportedNewTrace() : TraceSpan.unexported(traceParent);
        }
        TraceParent parent = traceParent == null ? null : TraceParent.parse(traceParent);
        SpanBuilder span = tracer.spanBuilder("try " + source).setSpanKind(SpanKind.CONSUMER)
                .setAttribute("messaging.system", "activemq")
                .setAttribute("messaging.operation", "process")
                .setAttribute("hookstile.source", source)
                .setAttribute("hookstile.event_id", eventId)
                .setAttribute("hookstile.event_type", type);
        return TraceSpan.of((parent == null ? span.setNoParent() : span.setParent(remote(parent))).startSpan());
    }

    /**
     * One request of a forwarding to its destination, under the try that scheduled it; {@code null} context for a
     * forwarding scheduled before this version.
     */
    public TraceSpan forwarding(String traceParent, String source, String eventId, String url) {
        if (tracer == null) {
            return TraceSpan.unexported(traceParent);
        }
        TraceParent parent = traceParent == null ? null : TraceParent.parse(traceParent);
        SpanBuilder span = tracer.spanBuilder("forwarding " + source).setSpanKind(SpanKind.CLIENT)
                .setAttribute("http.request.method", "POST")
                .setAttribute("server.address", hostOf(url))
                .setAttribute("hookstile.source", source)
                .setAttribute("hookstile.event_id", eventId);
        return TraceSpan.of((parent == null ? span.setNoParent() : span.setParent(remote(parent))).startSpan());
    }

    /** The host of a destination's URL, never its path or query (which may hold a token); "" for none. */
    private static String hostOf(String url) {
        try {
            String host = URI.create(url).getHost();
            return host == null ? "" : host;
        } catch (IllegalArgumentException e) {
            return "";
        }
    }

    private static Context remote(TraceParent parent) {
        return Context.root().with(Span.wrap(SpanContext.createFromRemoteParent(parent.traceId(), parent.spanId(),
                TraceFlags.fromHex(parent.flags(), 0), TraceState.getDefault())));
    }
}
