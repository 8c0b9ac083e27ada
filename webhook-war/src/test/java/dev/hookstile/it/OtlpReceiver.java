package dev.hookstile.it;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * An OpenTelemetry collector's trace endpoint in the test's JVM: {@code POST /v1/traces} with OTLP over HTTP in
 * protobuf ({@code OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf}), the spans read with a protobuf reader of the few fields
 * a test looks at (OTLP's {@code trace.proto}), so no generated classes are needed.
 */
public final class OtlpReceiver implements AutoCloseable {

    /** A span as the test sees it: ids in lower-case hex, the parent's empty for a root. */
    public record ExportedSpan(String traceId, String spanId, String parentSpanId, String name, int kind,
                               Map<String, String> attributes, int statusCode, String statusMessage) {

        /** OTLP's {@code STATUS_CODE_ERROR}. */
        public boolean failed() {
            return statusCode == 2;
        }
    }

    private final HttpServer server;
    private final ConcurrentLinkedQueue<ExportedSpan> spans = new ConcurrentLinkedQueue<>();

    public OtlpReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/traces", exchange -> {
            try (exchange) {
                byte[] body = exchange.getRequestBody().readAllBytes();
                try {
                    readRequest(body);
                    exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
                    exchange.sendResponseHeaders(200, -1);
                } catch (RuntimeException e) {
                    exchange.sendResponseHeaders(400, -1);
                }
            }
        });
        server.start();
    }

    /** The base URL, as {@code OTEL_EXPORTER_OTLP_ENDPOINT} takes it. */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public List<ExportedSpan> spans() {
        return List.copyOf(spans);
    }

    /** Waits until the spans received satisfy the condition; fails with what arrived after the timeout. */
    public List<ExportedSpan> await(Predicate<List<ExportedSpan>> condition, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<ExportedSpan> now = spans();
            if (condition.test(now)) {
                return now;
            }
            if (System.nanoTime() > deadline) {
                return fail("after " + timeout.toSeconds() + " s the spans received are " + now);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return fail("interrupted");
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }

    // ExportTraceServiceRequest: 1 resource_spans; ResourceSpans: 2 scope_spans; ScopeSpans: 2 spans.
    private void readRequest(byte[] request) {
        for (Field resourceSpans : fields(request)) {
            if (resourceSpans.number == 1) {
                for (Field scopeSpans : fields(resourceSpans.bytes)) {
                    if (scopeSpans.number == 2) {
                        for (Field span : fields(scopeSpans.bytes)) {
                            if (span.number == 2) {
                                spans.add(span(span.bytes));
                            }
                        }
                    }
                }
            }
        }
    }

    // Span: 1 trace_id, 2 span_id, 4 parent_span_id, 5 name, 6 kind, 9 attributes (KeyValue), 15 status.
    private static ExportedSpan span(byte[] span) {
        String traceId = "";
        String spanId = "";
        String parent = "";
        String name = "";
        int kind = 0;
        int code = 0;
        String message = "";
        var attributes = new LinkedHashMap<String, String>();
        for (Field field : fields(span)) {
            switch (field.number) {
                case 1 -> traceId = HexFormat.of().formatHex(field.bytes);
                case 2 -> spanId = HexFormat.of().formatHex(field.bytes);
                case 4 -> parent = HexFormat.of().formatHex(field.bytes);
                case 5 -> name = text(field.bytes);
                case 6 -> kind = (int) field.value;
                case 9 -> attribute(field.bytes, attributes);
                case 15 -> {
                    for (Field status : fields(field.bytes)) {
                        if (status.number == 2) {
                            message = text(status.bytes);
                        } else if (status.number == 3) {
                            code = (int) status.value;
                        }
                    }
                }
                default -> {
                }
            }
        }
        return new ExportedSpan(traceId, spanId, parent, name, kind, attributes, code, message);
    }

    // KeyValue: 1 key, 2 value (AnyValue: 1 string_value, 2 bool_value, 3 int_value).
    private static void attribute(byte[] keyValue, Map<String, String> into) {
        String key = null;
        String value = null;
        for (Field field : fields(keyValue)) {
            if (field.number == 1) {
                key = text(field.bytes);
            } else if (field.number == 2) {
                for (Field any : fields(field.bytes)) {
                    value = any.number == 1 ? text(any.bytes) : String.valueOf(any.value);
                }
            }
        }
        if (key != null) {
            into.put(key, value);
        }
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** One field of a protobuf message: its number and either its bytes (length-delimited) or its value. */
    private record Field(int number, byte[] bytes, long value) {
    }

    private static List<Field> fields(byte[] message) {
        var fields = new ArrayList<Field>();
        int[] at = {0};
        while (at[0] < message.length) {
            long tag = varint(message, at);
            int number = (int) (tag >>> 3);
            switch ((int) (tag & 7)) {
                case 0 -> fields.add(new Field(number, null, varint(message, at)));
                case 1 -> {
                    long value = 0;
                    for (int i = 7; i >= 0; i--) {
                        value = (value << 8) | (message[at[0] + i] & 0xff);
                    }
                    at[0] += 8;
                    fields.add(new Field(number, null, value));
                }
                case 2 -> {
                    int length = (int) varint(message, at);
                    byte[] bytes = new byte[length];
                    System.arraycopy(message, at[0], bytes, 0, length);
                    at[0] += length;
                    fields.add(new Field(number, bytes, 0));
                }
                case 5 -> {
                    at[0] += 4;
                    fields.add(new Field(number, null, 0));
                }
                default -> throw new IllegalArgumentException("wire type " + (tag & 7));
            }
        }
        return fields;
    }

    private static long varint(byte[] message, int[] at) {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            byte b = message[at[0]++];
            value |= (long) (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw new IllegalArgumentException("a varint longer than 64 bits");
    }
}
