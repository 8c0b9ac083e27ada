package dev.hookstile.trace.boundary;

import dev.hookstile.api.WebhookEvent;
import dev.hookstile.trace.TraceParent;
import dev.hookstile.trace.TraceSpan;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TracingTest {

    private static final String SENDER = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    private final InMemorySpanExporter exported = InMemorySpanExporter.create();
    private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exported))
                    .build())
            .build();

    @AfterEach
    void shutDown() {
        sdk.getSdkTracerProvider().close();
    }

    @Test
    void anEventsWayFromTheSenderToItsForwardingIsOneTrace() {
        Tracing tracing = Tracing.through(sdk);

        TraceSpan receive = tracing.receive(SENDER, "pay");
        TraceSpan handOff = tracing.handOff(receive, "pay");
        handOff.end();
        receive.end();
        // The message carries the hand-off's context; each try continues it, a retry too.
        WebhookEvent queued = event(handOff.traceParent());
        TraceSpan failed = tracing.tryOf(queued).failed("simulated outage");
        failed.end();
        TraceSpan retried = tracing.tryOf(queued);
        retried.end();
        // The outbox row carries the successful try's context.
        TraceSpan forwarding = tracing.forwarding(retried.traceParent(), "pay", "evt_1",
                "https://billing.example/in?token=s3cret");
        forwarding.end();

        List<SpanData> spans = exported.getFinishedSpanItems();
        assertEquals(5, spans.size());
        spans.forEach(span -> assertEquals("4bf92f3577b34da6a3ce929d0e0e4736", span.getTraceId(), span.getName()));
        SpanData receiveSpan = named(spans, "receive pay");
        SpanData handOffSpan = named(spans, "hand-off pay");
        List<SpanData> trySpans = spans.stream().filter(span -> span.getName().equals("try pay")).toList();
        SpanData forwardingSpan = named(spans, "forwarding pay");
        assertEquals("00f067aa0ba902b7", receiveSpan.getParentSpanId());
        assertEquals(SpanKind.SERVER, receiveSpan.getKind());
        assertEquals(receiveSpan.getSpanId(), handOffSpan.getParentSpanId());
        assertEquals(SpanKind.PRODUCER, handOffSpan.getKind());
        assertEquals(2, trySpans.size());
        trySpans.forEach(span -> assertEquals(handOffSpan.getSpanId(), span.getParentSpanId()));
        trySpans.forEach(span -> assertEquals(SpanKind.CONSUMER, span.getKind()));
        assertEquals(StatusCode.ERROR, trySpans.get(0).getStatus().getStatusCode());
        assertEquals("simulated outage", trySpans.get(0).getStatus().getDescription());
        assertEquals("evt_1", trySpans.get(1).getAttributes().asMap().entrySet().stream()
                .filter(e -> e.getKey().getKey().equals("hookstile.event_id")).findFirst().orElseThrow().getValue());
        assertEquals(trySpans.get(1).getSpanId(), forwardingSpan.getParentSpanId());
        assertEquals(SpanKind.CLIENT, forwardingSpan.getKind());
        // The destination's host, never its path or query.
        assertFalse(forwardingSpan.getAttributes().toString().contains("s3cret"));
        assertTrue(forwardingSpan.getAttributes().toString().contains("billing.example"));
        // What each step passes on names itself as the parent.
        assertEquals("00-" + receiveSpan.getTraceId() + "-" + handOffSpan.getSpanId() + "-01", handOff.traceParent());
    }

    @Test
    void aDeliveryWithoutAValidContextStartsATraceOfItsOwn() {
        Tracing tracing = Tracing.through(sdk);

        tracing.receive("00-00000000000000000000000000000000-00f067aa0ba902b7-01", "pay").end();
        tracing.receive(null, "pay").end();

        List<SpanData> spans = exported.getFinishedSpanItems();
        assertEquals(2, spans.size());
        spans.forEach(span -> assertFalse(span.getParentSpanContext().isValid()));
        assertNotEquals(spans.get(0).getTraceId(), spans.get(1).getTraceId());
    }

    @Test
    void aReplayIsATraceOfItsOwnThatItsTriesContinue() {
        Tracing tracing = Tracing.through(sdk);

        TraceSpan replay = tracing.replay("pay", "evt_1");
        replay.end();
        tracing.tryOf(event(replay.traceParent())).end();

        List<SpanData> spans = exported.getFinishedSpanItems();
        assertEquals(spans.get(0).getTraceId(), spans.get(1).getTraceId());
        assertEquals(spans.get(0).getSpanId(), spans.get(1).getParentSpanId());
    }

    @Test
    void withoutAnExporterTheSendersContextIsPassedOnUnchangedAndNoSpanIsMade() {
        Tracing tracing = Tracing.through(null);

        TraceSpan receive = tracing.receive(SENDER, "pay");
        TraceSpan handOff = tracing.handOff(receive, "pay");
        TraceSpan tried = tracing.tryOf(event(handOff.traceParent()));
        TraceSpan forwarding = tracing.forwarding(tried.traceParent(), "pay", "evt_1", "https://billing.example/");

        assertFalse(tracing.exporting());
        assertSame(receive, handOff);
        assertNull(receive.span());
        assertEquals(SENDER, receive.traceParent());
        assertEquals(SENDER, tried.traceParent());
        assertEquals(SENDER, forwarding.traceParent());
    }

    @Test
    void withoutAnExporterADeliveryWithoutAContextStillGetsATrace() {
        Tracing tracing = Tracing.through(null);

        TraceSpan receive = tracing.receive("not a traceparent", "pay");
        TraceSpan replay = tracing.replay("pay", "evt_1");

        TraceParent started = TraceParent.parse(receive.traceParent());
        assertTrue(started.sampled());
        // Drawn when first asked for (a duplicate never asks), then the same for every event of the delivery.
        assertEquals(started.header(), receive.traceParent());
        assertEquals(started.traceId(), receive.traceId());
        assertNotEquals(TraceParent.traceIdOf(replay.traceParent()), started.traceId());
        // A forwarding scheduled before the outbox kept a context sends none.
        assertNull(tracing.forwarding(null, "pay", "evt_1", "https://billing.example/").traceParent());
    }

    private static WebhookEvent event(String traceParent) {
        return new WebhookEvent("pay", "stripe", "evt_1", "invoice.paid", Instant.EPOCH, 1, Map.of(), new byte[0],
                null, false, traceParent);
    }

    private static SpanData named(List<SpanData> spans, String name) {
        return spans.stream().filter(span -> span.getName().equals(name)).findFirst().orElseThrow(() ->
                new AssertionError("no span " + name + " among " + spans));
    }
}
