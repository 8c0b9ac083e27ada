package dev.hookstile.api;

import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.json.bind.JsonbException;
import jakarta.json.spi.JsonProvider;

import java.io.ByteArrayInputStream;
import java.util.Objects;

/**
 * {@link WebhookEvent#json()} and {@link WebhookEvent#payloadAs}, apart from the event: only a handler that calls
 * them needs JSON-P or JSON-B on its class path (the container has both; a unit test adds Parsson and Yasson, or
 * Hookstile's test kit), and each is resolved on its first use, JSON-P without JSON-B.
 */
final class Payloads {

    private Payloads() {
    }

    static JsonObject json(byte[] payload, WebhookEvent event) {
        try (JsonReader reader = JsonP.PROVIDER.createReader(new ByteArrayInputStream(payload))) {
            return reader.readObject();
        } catch (JsonException | IllegalStateException e) {
            throw new PermanentFailure("the payload of " + event + " is not a JSON object: " + e.getMessage(), e);
        }
    }

    static <T> T bind(byte[] payload, Class<T> type, WebhookEvent event) {
        Objects.requireNonNull(type, "type");
        try {
            return JsonB.BINDER.fromJson(new ByteArrayInputStream(payload), type);
        } catch (JsonbException | JsonException e) {
            throw new PermanentFailure("the payload of " + event + " cannot be read as " + type.getSimpleName()
                    + ": " + e.getMessage(), e);
        }
    }

    /** Resolved once: each lookup goes through the {@code ServiceLoader}. */
    private static final class JsonP {
        static final JsonProvider PROVIDER = JsonProvider.provider();
    }

    /** Created once: a {@code Jsonb} is costly to create and safe to share between threads. */
    private static final class JsonB {
        static final Jsonb BINDER = JsonbBuilder.create();
    }
}
