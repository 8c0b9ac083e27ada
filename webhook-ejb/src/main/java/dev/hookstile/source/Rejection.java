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
}
