package dev.hookstile.trace.boundary;

import com.sun.net.httpserver.HttpServer;
import dev.hookstile.it.Deployments;
import dev.hookstile.it.ItEnvironment;
import dev.hookstile.it.OtlpReceiver;
import dev.hookstile.it.OtlpReceiver.ExportedSpan;
import dev.hookstile.it.ServerProcess;
import dev.hookstile.it.Webhooks;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;

import static dev.hookstile.it.Webhooks.completed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One delivery's way is one trace in the operator's tracing tool: Hookstile runs as users run it, with
 * {@code OTEL_EXPORTER_OTLP_ENDPOINT} pointing at a collector's trace endpoint in this test, and a delivery that
 * carries the sender's {@code traceparent} fails its first try, comes back from the broker, succeeds and is forwarded.
 */
class TracingIT {

    private static final String SENDER_SPAN = "00f067aa0ba902b7";
    private static final int SERVER = 2;
    private static final int CLIENT = 3;
    private static final int PRODUCER = 4;
    private static final int CONSUMER = 5;

    @Test
    void oneDeliverysSpansFormOneTraceAcrossTheBrokerARedeliveryAndItsForwarding() throws Exception {
        Path work = Files.createDirectories(ItEnvironment.dir().resolve("tracing-" + UUID.randomUUID()));
        var forwarded = new ConcurrentLinkedQueue<String>();
        HttpServer destination = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        destination.createContext("/hooks", exchange -> {
            try (exchange) {
                exchange.getRequestBody().readAllBytes();
                forwarded.add(String.valueOf(exchange.getRequestHeaders().getFirst("traceparent")));
                exchange.sendResponseHeaders(204, -1);
            }
        });
        destination.start();
        try (var collector = new OtlpReceiver();
             var server = new ServerProcess(work, Deployments.exportTo(work.resolve("hookstile-it.war")))) {
            server.with("OTEL_EXPORTER_OTLP_ENDPOINT", collector.url())
                    .with("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")
                    .with("OTEL_BSP_SCHEDULE_DELAY", "200")
                    // A failed try goes back to the broker: the second try reads the context from the message again.
                    .with("HOOKSTILE_SOURCES_IT_RETRIES", "0")
                    .with("HOOKSTILE_SOURCES_IT_DESTINATION_URL",
                            "http://127.0.0.1:" + destination.getAddress().getPort() + "/hooks")
                    .with("HOOKSTILE_SOURCES_IT_DESTINATION_SECRET", "whsec_dGVzdC1kZXN0aW5hdGlvbi1zZWNyZXQtMzItYnl0ZXMh")
                    .start();
            Webhooks webhooks = server.webhooks();
            String traceId = UUID.randomUUID().toString().replace("-", "");
            String id = "fail-once-" + UUID.randomUUID();

            var response = webhooks.send(webhooks.standard("it", id, "{\"type\":\"traced\"}")
                    .header("traceparent", "00-" + traceId + "-" + SENDER_SPAN + "-01"));

            assertEquals(202, response.statusCode(), response.body());
            JsonObject recorded = webhooks.awaitRecorded("it", id, completed(), Duration.ofSeconds(60));
            List<ExportedSpan> spans = collector.await(all -> named(all, traceId, "try it").size() >= 2
                    && named(all, traceId, "forwarding it").size() == 1, Duration.ofSeconds(60));

            ExportedSpan receive = only(named(spans, traceId, "receive it"));
            assertEquals(SENDER_SPAN, receive.parentSpanId(), "the sender's trace continued");
            assertEquals(SERVER, receive.kind());
            ExportedSpan handOff = only(named(spans, traceId, "hand-off it"));
            assertEquals(receive.spanId(), handOff.parentSpanId());
            assertEquals(PRODUCER, handOff.kind());
            List<ExportedSpan> tries = named(spans, traceId, "try it");
            assertEquals(2, tries.size(), tries.toString());
            for (ExportedSpan tried : tries) {
                assertEquals(handOff.spanId(), tried.parentSpanId(), "each try, the redelivered one too: " + tried);
                assertEquals(CONSUMER, tried.kind());
                assertEquals(id, tried.attributes().get("hookstile.event_id"));
            }
            ExportedSpan failed = tries.stream().filter(ExportedSpan::failed).findFirst().orElseThrow();
            ExportedSpan succeeded = tries.stream().filter(t -> !t.failed()).findFirst().orElseThrow();
            assertEquals("1", failed.attributes().get("hookstile.attempt"));
            assertTrue(failed.statusMessage().contains("simulated handler failure"), failed.statusMessage());
            assertEquals("2", succeeded.attributes().get("hookstile.attempt"));
            assertEquals("completed", succeeded.attributes().get("hookstile.outcome"));
            ExportedSpan forwarding = only(named(spans, traceId, "forwarding it"));
            assertEquals(succeeded.spanId(), forwarding.parentSpanId());
            assertEquals(CLIENT, forwarding.kind());
            assertFalse(forwarding.failed());

            // The handler saw the succeeding try's context, and the destination the forwarding's.
            assertEquals(List.of("00-" + traceId + "-" + succeeded.spanId() + "-01").toString(),
                    recorded.getJsonArray("effectTraces").toString().replace("\"", ""));
            assertEquals(List.of("00-" + traceId + "-" + forwarding.spanId() + "-01"), List.copyOf(forwarded));
            // Nothing but these five steps, and no span of Payara's own (per request, per EJB call) in any trace.
            assertEquals(5, spans.stream().filter(span -> span.traceId().equals(traceId)).count(), spans.toString());
            for (ExportedSpan span : collector.spans()) {
                assertTrue(span.name().matches("(receive|hand-off|try|forwarding|replay) [a-z0-9-]+"), span.toString());
            }
            assertTrue(server.stop(), "SIGTERM stops the server");
        } finally {
            destination.stop(0);
        }
    }

    private static List<ExportedSpan> named(List<ExportedSpan> spans, String traceId, String name) {
        return spans.stream().filter(span -> span.traceId().equals(traceId) && span.name().equals(name)).toList();
    }

    private static ExportedSpan only(List<ExportedSpan> spans) {
        assertEquals(1, spans.size(), spans.toString());
        return spans.get(0);
    }
}
