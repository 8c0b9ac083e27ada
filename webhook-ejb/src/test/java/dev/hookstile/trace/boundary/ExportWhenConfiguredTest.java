package dev.hookstile.trace.boundary;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExportWhenConfiguredTest {

    @Test
    void anOtlpEndpointTurnsTheSdkOnForTracesOnly() {
        var source = new ExportWhenConfigured(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318"), Map.of());

        assertEquals("false", source.getValue("otel.sdk.disabled"));
        assertEquals("none", source.getValue("otel.metrics.exporter"));
        assertEquals("none", source.getValue("otel.logs.exporter"));
        assertEquals("hookstile", source.getValue("otel.service.name"));
        assertTrue(source.getPropertyNames().contains("otel.sdk.disabled"));
    }

    @Test
    void aTracesEndpointOrASystemPropertyDoesToo() {
        assertEquals("false", new ExportWhenConfigured(Map.of("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://c:4318/v1/traces"),
                Map.of()).getValue("otel.sdk.disabled"));
        assertEquals("false", new ExportWhenConfigured(Map.of(), Map.of("otel.exporter.otlp.endpoint", "http://c:4317"))
                .getValue("otel.sdk.disabled"));
    }

    @Test
    void withoutAnEndpointItSaysNothingAndExplicitSettingsWin() {
        var source = new ExportWhenConfigured(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "  "), Map.of());

        assertNull(source.getValue("otel.sdk.disabled"));
        assertTrue(source.getPropertyNames().isEmpty());
        // Below the environment (300), system properties (400) and microprofile-config.properties (100).
        assertTrue(source.getOrdinal() < 100);
    }
}
