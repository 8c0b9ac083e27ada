package dev.hookstile.trace.boundary;

import org.eclipse.microprofile.config.spi.ConfigSource;

import java.util.Map;
import java.util.Set;

/**
 * Turns the container's OpenTelemetry SDK on for Hookstile when an OTLP endpoint is configured
 * ({@code OTEL_EXPORTER_OTLP_ENDPOINT} or {@code OTEL_EXPORTER_OTLP_TRACES_ENDPOINT}, or their system properties):
 * MicroProfile Telemetry keeps it off unless {@code otel.sdk.disabled=false}, and an operator who names an endpoint
 * means to export to it. Only traces: no metrics and no logs are exported (Hookstile's metrics are on
 * {@code /metrics}). A lower ordinal than every standard source, so an explicit {@code OTEL_SDK_DISABLED=true} or
 * {@code OTEL_SERVICE_NAME} wins. Registered in {@code META-INF/services}.
 */
public class ExportWhenConfigured implements ConfigSource {

    static final String SDK_DISABLED = "otel.sdk.disabled";
    private static final int ORDINAL = 50;

    private final Map<String, String> values;

    public ExportWhenConfigured() {
        this(System.getenv(), System.getProperties());
    }

    ExportWhenConfigured(Map<String, String> environment, Map<Object, Object> systemProperties) {
        boolean endpoint = present(environment.get("OTEL_EXPORTER_OTLP_ENDPOINT"))
                || present(environment.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"))
                || present(systemProperties.get("otel.exporter.otlp.endpoint"))
                || present(systemProperties.get("otel.exporter.otlp.traces.endpoint"));
        values = endpoint ? Map.of(SDK_DISABLED, "false", "otel.service.name", "hookstile",
                "otel.metrics.exporter", "none", "otel.logs.exporter", "none") : Map.of();
    }

    private static boolean present(Object value) {
        return value != null && !value.toString().isBlank();
    }

    @Override
    public Set<String> getPropertyNames() {
        return values.keySet();
    }

    @Override
    public Map<String, String> getProperties() {
        return values;
    }

    @Override
    public String getValue(String name) {
        return values.get(name);
    }

    @Override
    public String getName() {
        return "Hookstile: OpenTelemetry on when an OTLP endpoint is configured";
    }

    @Override
    public int getOrdinal() {
        return ORDINAL;
    }
}
