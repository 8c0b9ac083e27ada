package dev.hookstile.source;

/**
 * Why a delivery is refused, with the HTTP status it gets. The slug names the problem type
 * ({@code urn:hookstile:problem:<slug>}) and tags the rejection metric.
 */
public enum Rejection {
    PAYLOAD_TOO_LARGE(413, "payload-too-large", "Payload too large"),
    TOO_MANY_FIELDS(413, "too-many-fields", "Too many form fields"),
    TOO_MANY_EVENTS(413, "too-many-events", "Too many events in one delivery"),
    BODY_TIMEOUT(408, "body-timeout", "Request body too slow"),
    BODY_BUFFERS_FULL(503, "body-buffers-full", "Too many request bodies in flight"),
    UNKNOWN_SOURCE(404, "unknown-source", "Unknown source"),
    METHOD_NOT_ALLOWED(405, "method-not-allowed", "Method not allowed"),
    UNSUPPORTED_MEDIA_TYPE(415, "unsupported-media-type", "Unsupported media type"),
    HANDSHAKE_REFUSED(403, "handshake-refused", "Handshake refused"),
    MISSING_SIGNATURE(401, "missing-signature", "Missing signature"),
    MALFORMED_SIGNATURE(401, "malformed-signature", "Malformed signature"),
    INVALID_SIGNATURE(401, "invalid-signature", "Invalid signature"),
    INVALID_TIMESTAMP(401, "invalid-timestamp", "Invalid signature timestamp"),
    TIMESTAMP_OUT_OF_TOLERANCE(401, "timestamp-out-of-tolerance", "Signature timestamp outside tolerance"),
    MISSING_EVENT_ID(400, "missing-event-id", "Missing event id"),
    INVALID_EVENT_ID(400, "invalid-event-id", "Invalid event id"),
    INVALID_EVENT_TYPE(400, "invalid-event-type", "Invalid event type"),
    INVALID_PAYLOAD(400, "invalid-payload", "Invalid payload");

    private final int status;
    private final String slug;
    private final String title;

    Rejection(int status, String slug, String title) {
        this.status = status;
        this.slug = slug;
        this.title = title;
    }

    public int status() {
        return status;
    }

    public String slug() {
        return slug;
    }

    public String title() {
        return title;
    }

    /** What an operator could try when a sender's deliveries are refused for this reason. */
    public String hint() {
        return switch (this) {
            case PAYLOAD_TOO_LARGE, TOO_MANY_FIELDS, TOO_MANY_EVENTS ->
                    "the sender's bodies exceed the limits: raise HOOKSTILE_INGEST_MAX_BODY_BYTES (or the events "
                            + "per delivery, HOOKSTILE_INGEST_MAX_EVENTS_PER_DELIVERY) if they are genuine";
            case BODY_TIMEOUT -> "the body arrived too slowly: a slow link or proxy, or a client that stalls";
            case BODY_BUFFERS_FULL -> "too many bodies in flight at once: a burst larger than the budget, or slow "
                    + "senders holding it; the sender retries";
            case UNKNOWN_SOURCE -> "no source has this name: is the URL in the sender's dashboard mistyped, or the "
                    + "source not configured (HOOKSTILE_SOURCES_<NAME>_PROVIDER)?";
            case METHOD_NOT_ALLOWED -> "deliveries are POSTed: is the sender configured with another method?";
            case UNSUPPORTED_MEDIA_TYPE -> "the body's media type is not one this provider sends: a proxy that "
                    + "rewrites Content-Type?";
            case HANDSHAKE_REFUSED -> "the verification handshake's token did not match: compare the verify token "
                    + "with the sender's";
            case MISSING_SIGNATURE -> "no signature header: is this sender signing, and does a proxy strip the header?";
            case MALFORMED_SIGNATURE -> "the signature header is not in the provider's format: is the source's "
                    + "provider the sender's (and for Standard Webhooks, v1 needs a secret, v1a a public key)?";
            case INVALID_SIGNATURE -> "the signature matched none of the source's secrets (or public keys): was the "
                    + "secret rotated, or does a proxy re-encode the body?";
            case INVALID_TIMESTAMP -> "the signature's timestamp cannot be read: is the source's provider the sender's?";
            case TIMESTAMP_OUT_OF_TOLERANCE -> "the signed time is too far from this server's clock: is either clock "
                    + "off, or are old deliveries being replayed?";
            case MISSING_EVENT_ID, INVALID_EVENT_ID, INVALID_EVENT_TYPE -> "the delivery lacks a usable event id or "
                    + "type: is the source's provider the sender's?";
            case INVALID_PAYLOAD -> "the body cannot be read as this provider's: a proxy that re-encodes it, or "
                    + "another provider's deliveries?";
        };
    }
}
