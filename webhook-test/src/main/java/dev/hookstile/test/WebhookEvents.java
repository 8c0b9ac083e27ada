package dev.hookstile.test;

import dev.hookstile.api.WebhookEvent;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * Events as a handler receives them, for unit tests of a handler with no container:
 *
 * <pre>{@code
 * handler.handle(WebhookEvents.stripe("invoice.paid").payload(invoicePaidJson).build());
 * }</pre>
 *
 * Unless set, the source is named after the provider, the id is new for every event, the event was received now and
 * this is its first attempt.
 */
public final class WebhookEvents {

    private String source;
    private final String provider;
    private final String type;
    private String eventId = "evt_" + UUID.randomUUID();
    private Instant receivedAt = Instant.now();
    private int attempt = 1;
    private final Map<String, String> headers = new LinkedHashMap<>();
    private byte[] payload = "{}".getBytes(StandardCharsets.UTF_8);
    private String orderKey;
    private boolean olderThanLastProcessed;
    // As Hookstile gives every try one: a new trace, sampled.
    private String traceParent = "00-" + UUID.randomUUID().toString().replace("-", "") + "-"
            + UUID.randomUUID().toString().replace("-", "").substring(0, 16) + "-01";

    private WebhookEvents(String provider, String type) {
        this.provider = Objects.requireNonNull(provider, "provider");
        this.type = type == null ? "" : type;
        this.source = provider;
    }

    /** An event of any provider (Hookstile's names: {@code github}, {@code stripe}, {@code hmac}, ...). */
    public static WebhookEvents of(String provider, String type) {
        return new WebhookEvents(provider, type);
    }

    public static WebhookEvents stripe(String type) {
        return of("stripe", type);
    }

    public static WebhookEvents github(String event) {
        return of("github", event);
    }

    public static WebhookEvents shopify(String topic) {
        return of("shopify", topic);
    }

    public static WebhookEvents slack(String type) {
        return of("slack", type);
    }

    public static WebhookEvents standardWebhooks(String type) {
        return of("standard-webhooks", type);
    }

    public WebhookEvents source(String name) {
        this.source = Objects.requireNonNull(name, "name");
        return this;
    }

    public WebhookEvents eventId(String id) {
        this.eventId = Objects.requireNonNull(id, "id");
        return this;
    }

    public WebhookEvents receivedAt(Instant at) {
        this.receivedAt = Objects.requireNonNull(at, "at");
        return this;
    }

    /** 1 for the first try; higher for a retry or a replay. */
    public WebhookEvents attempt(int number) {
        if (number < 1) {
            throw new IllegalArgumentException("attempts count from 1");
        }
        this.attempt = number;
        return this;
    }

    /** A retained header, as Hookstile hands them over: the name in lower case. */
    public WebhookEvents header(String name, String value) {
        headers.put(name.toLowerCase(java.util.Locale.ROOT), value);
        return this;
    }

    /** The body, as text (UTF-8). */
    public WebhookEvents payload(String body) {
        return payload(body.getBytes(StandardCharsets.UTF_8));
    }

    public WebhookEvents payload(byte[] body) {
        this.payload = Objects.requireNonNull(body, "body");
        return this;
    }

    /** The event's order key; {@code olderThanLastProcessed} as Hookstile would tell it. */
    public WebhookEvents orderKey(String key, boolean olderThanLastProcessed) {
        this.orderKey = Objects.requireNonNull(key, "key");
        this.olderThanLastProcessed = olderThanLastProcessed;
        return this;
    }

    /** The try's W3C {@code traceparent} ({@code event.traceParent()}); a new trace unless set. */
    public WebhookEvents traceParent(String value) {
        this.traceParent = value;
        return this;
    }

    public WebhookEvent build() {
        return new WebhookEvent(source, provider, eventId, type, receivedAt, attempt, headers, payload, orderKey,
                olderThanLastProcessed, traceParent);
    }
}
