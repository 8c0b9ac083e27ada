package dev.hookstile.api;

import java.net.URI;

/**
 * Side effects that leave exactly when the event was processed. Inject it into a {@link WebhookHandler}
 * ({@code @Inject Outbox outbox;}) and schedule what the handler would otherwise call directly (a charge, an e-mail
 * service, another system's API):
 *
 * <pre>{@code
 * outbox.post(URI.create("https://billing.example/charges"), "application/json", json);
 * }</pre>
 *
 * <p>Nothing is sent while the handler runs. The request is written in the processing transaction, with the claim
 * and the handler's own database work: a try that rolls back schedules nothing, and a committed one schedules it
 * once. Hookstile's outbox relay then sends it, at least once, with
 * {@code Idempotency-Key: <source>:<eventId>:effect-<n>} (the handler's n-th effect for this event), the same on
 * every retry, so a receiver that deduplicates on it applies it once. Timeouts, 408, 429 and 5xx are retried with
 * back-off (behind a circuit breaker per URL); any other 4xx makes it {@code dead}. Each one is visible, and a
 * delivered or dead one can be sent again, under {@code /api/forwardings}. A replay of the event runs the handler
 * again but sends an effect it already scheduled (same n, same URL) no second time.
 *
 * <p>Only for handlers: outside the processing of an event it throws {@link IllegalStateException}.
 */
public interface Outbox {

    /** The most bytes one effect's body may hold. */
    int MAX_BODY = 1 << 20;

    /**
     * Schedules an HTTP {@code POST} of {@code body} to {@code url}.
     *
     * @param url         an absolute {@code http} or {@code https} URL
     * @param contentType the request's {@code Content-Type}
     * @param body        at most {@link #MAX_BODY} bytes
     * @throws IllegalArgumentException for a URL, content type or body that cannot be sent
     * @throws IllegalStateException    outside a handler's processing of an event
     */
    void post(URI url, String contentType, byte[] body);
}
