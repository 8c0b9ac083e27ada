package dev.hookstile.api;

import jakarta.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * One verified webhook event, as a handler sees it.
 *
 * <p>The payload is the raw body exactly as the sender signed it; Hookstile never re-serialises it, so a handler
 * can parse it with whatever model fits and still trust every byte. The array is shared, not copied, to keep the hot
 * path free of needless copies: treat it as read-only.
 *
 * @param source     the configured source name the event arrived on (the {@code {source}} in {@code /webhooks/{source}})
 * @param provider   the provider that signed it ({@code github}, {@code stripe}, {@code standard-webhooks}, ...)
 * @param eventId    the sender's event id, the deduplication key together with {@code source}
 * @param type       the sender's event type ({@code push}, {@code invoice.paid}, ...), or {@code ""} if it has none
 * @param receivedAt when Hookstile acknowledged the delivery
 * @param attempt    1 for the first processing attempt, higher for every retry (in process or redelivered) and replay
 * @param headers    the delivery headers that matter to the provider (lower-case names), signatures redacted
 * @param payload    the raw request body
 * @param orderKey   the event's ordering key, read from the body at the source's {@code _ORDER_KEY} pointer; events
 *                   with the same key are processed one at a time in the order they were acknowledged. {@code null}
 *                   when the source orders nothing or the body has no value there
 * @param olderThanLastProcessed whether an event acknowledged later with the same key was processed already (a
 *                   replay of an old event, a dead event replayed after newer ones): a handler that keeps the latest
 *                   state per key can skip it. Always {@code false} without an order key
 * @param traceParent the W3C {@code traceparent} of this try (version {@code 00}, 55 characters): a handler that
 *                   calls other services passes it on in their {@code traceparent} header (or makes it the parent of
 *                   its own spans), and its calls join the sender's trace. It continues the delivery's own
 *                   {@code traceparent}, or a trace Hookstile started; {@code null} only for an event made outside
 *                   Hookstile's processing (a test's)
 */
public record WebhookEvent(String source, String provider, String eventId, String type, Instant receivedAt,
                           int attempt, Map<String, String> headers, byte[] payload, String orderKey,
                           boolean olderThanLastProcessed, String traceParent) {

    public WebhookEvent {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(receivedAt, "receivedAt");
        Objects.requireNonNull(payload, "payload");
        type = type == null ? "" : type;
        headers = headers == null ? Map.of() : Map.copyOf(headers);
        if (orderKey == null && olderThanLastProcessed) {
            throw new IllegalArgumentException("only an event with an order key can be older than another");
        }
    }

    /** An event with no trace context. */
    public WebhookEvent(String source, String provider, String eventId, String type, Instant receivedAt,
                        int attempt, Map<String, String> headers, byte[] payload, String orderKey,
                        boolean olderThanLastProcessed) {
        this(source, provider, eventId, type, receivedAt, attempt, headers, payload, orderKey, olderThanLastProcessed,
                null);
    }

    /** An event of a source that orders nothing. */
    public WebhookEvent(String source, String provider, String eventId, String type, Instant receivedAt,
                        int attempt, Map<String, String> headers, byte[] payload) {
        this(source, provider, eventId, type, receivedAt, attempt, headers, payload, null, false, null);
    }

    /** The same event as seen by another attempt. */
    public WebhookEvent withAttempt(int attempt) {
        return attempt == this.attempt ? this
                : new WebhookEvent(source, provider, eventId, type, receivedAt, attempt, headers, payload, orderKey,
                olderThanLastProcessed, traceParent);
    }

    /** The same event, told whether a later event with its order key was processed before it. */
    public WebhookEvent withOlderThanLastProcessed(boolean older) {
        return older == olderThanLastProcessed ? this
                : new WebhookEvent(source, provider, eventId, type, receivedAt, attempt, headers, payload, orderKey,
                older, traceParent);
    }

    /** The same event, under this trace context. */
    public WebhookEvent withTraceParent(String context) {
        return Objects.equals(context, traceParent) ? this
                : new WebhookEvent(source, provider, eventId, type, receivedAt, attempt, headers, payload, orderKey,
                olderThanLastProcessed, context);
    }

    /** The payload decoded as UTF-8, for handlers of JSON or form bodies. */
    public String payloadAsString() {
        return new String(payload, StandardCharsets.UTF_8);
    }

    /**
     * The payload as a JSON object, for handlers that read a few fields: {@code event.json().getString("type")}.
     * Parsed on each call: keep the result rather than calling it again.
     *
     * @throws PermanentFailure when the payload is not a JSON object (malformed, an array, a form body): the sender
     *                          signed it as it is, so no retry can change it; the event is recorded dead with this
     *                          reason, and replayable once a handler accepts it
     */
    public JsonObject json() {
        return Payloads.json(payload, this);
    }

    /**
     * The payload bound to a class of the handler's (a record, or a class with a public no-argument constructor)
     * with JSON-B: {@code Invoice invoice = event.payloadAs(Invoice.class)}. Properties the class does not have
     * are ignored; those the payload lacks keep their default ({@code null}, or {@code 0} and {@code false} for
     * primitives); a payload that is JSON {@code null} gives {@code null}.
     *
     * @throws PermanentFailure when the payload cannot be bound to {@code type} (malformed JSON, a value of another
     *                          type): the event is recorded dead with this reason, never retried
     */
    public <T> T payloadAs(Class<T> type) {
        return Payloads.bind(payload, type, this);
    }

    /** A header by its name, case-insensitively; {@code null} if it was not retained. */
    public String header(String name) {
        return headers.get(name.toLowerCase(java.util.Locale.ROOT));
    }

    /**
     * For log lines and messages: the id and the type are the sender's, so they are {@linkplain Text#quoted quoted}
     * as Hookstile quotes them in its own log lines.
     */
    @Override
    public String toString() {
        return "WebhookEvent[" + source + "/" + Text.quoted(eventId) + " type=" + Text.quoted(type) + " attempt="
                + attempt + "]";
    }
}
