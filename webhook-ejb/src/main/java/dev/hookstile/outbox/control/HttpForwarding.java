package dev.hookstile.outbox.control;

import dev.hookstile.platform.Redacted;
import dev.hookstile.platform.boundary.OwnThreads;
import dev.hookstile.source.Destination;
import dev.hookstile.trace.TraceParent;
import dev.hookstile.source.Ed25519;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * One forwarding request: the event's original body, POSTed with {@code Idempotency-Key: <source>:<eventId>} (stable
 * across retries, so the destination can drop a repeat) and signed the Standard Webhooks way ({@code webhook-id},
 * {@code webhook-timestamp}, {@code webhook-signature}), plus {@code X-Hookstile-Source} and
 * {@code X-Hookstile-Event-Type}. Keep-alive connections from one client; a timeout on everything.
 *
 * <p>The client and its threads belong to the application: its owner ({@code OutboxRelay}) closes it when the
 * application stops. Left to a static, the client's threads outlived an undeploy and held the deployment's classes
 * in memory for the life of the server.
 */
public final class HttpForwarding implements AutoCloseable {

    /** What became of one request. */
    public sealed interface Result {
    }

    /** 2xx: delivered. */
    public record Delivered() implements Result {
    }

    /** Worth trying again: a timeout or I/O failure, 408, 429 (with the destination's {@code Retry-After}), 5xx. */
    public record Transient(String reason, OptionalLong retryAfterSeconds) implements Result {
    }

    /** Any other answer: trying again cannot help. */
    public record Permanent(String reason) implements Result {
    }

    /**
     * No request could be made of the entry (a header value the HTTP client refuses, a URL it cannot send to, an
     * empty signing key): trying again cannot help, and the destination was not asked, so its breaker learns nothing.
     */
    public record Unsendable(String reason) implements Result {
    }

    static final Duration TIMEOUT = Duration.ofSeconds(10);

    /**
     * The client's own threads, as the JDK's default (a cached pool of daemon threads, each started by whichever
     * thread needs it and inheriting its priority), but ended by {@link #close}.
     */
    private final ExecutorService threads;
    /** Dropped by {@link #close}: see there. */
    private volatile HttpClient client;

    public HttpForwarding() {
        threads = Executors.newCachedThreadPool(OwnThreads.numbered("hookstile-forwarding"));
        client = HttpClient.newBuilder()
                .connectTimeout(TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER)
                .executor(threads)
                .build();
    }

    /**
     * Ends the client's threads; requests still in flight fail. On Java 17 the client has no close of its own: its
     * selector thread ends by itself once nothing references the client any more, so the reference is dropped here
     * too (Payara Server keeps an undeployed singleton reachable from a pooled thread for a while, and with it this
     * object), and none is kept in a static.
     */
    @Override
    public void close() {
        client = null;
        threads.shutdownNow();
    }

    /** Forwards the event; never throws: an entry no request can be made of is {@link Unsendable}. */
    public CompletableFuture<Result> send(Destination destination, OutboxEntries.Due entry, Instant now,
                                          String traceParent) {
        HttpRequest request;
        try {
            String id = entry.source() + ":" + entry.eventId();
            String timestamp = String.valueOf(now.getEpochSecond());
            request = traced(HttpRequest.newBuilder(destination.url()), traceParent)
                    .timeout(TIMEOUT)
                    .header("Content-Type", "application/json")
                    .header("Idempotency-Key", id)
                    .header("webhook-id", id)
                    .header("webhook-timestamp", timestamp)
                    .header("webhook-signature", signatures(destination, id, timestamp, entry.payload()))
                    .header("X-Hookstile-Source", entry.source())
                    .header("X-Hookstile-Event-Type", entry.type())
                    .POST(HttpRequest.BodyPublishers.ofByteArray(entry.payload()))
                    .build();
        } catch (RuntimeException e) {
            return unsendable(e);
        }
        return exchange(request);
    }

    /**
     * A notification to the operator's endpoint: its body as scheduled, signed the Standard Webhooks way with the
     * notification's id as {@code webhook-id}, the same on every retry, so the endpoint can drop a repeat. Never
     * throws, as {@link #send}.
     */
    public CompletableFuture<Result> sendNotification(Destination endpoint, OutboxEntries.Due entry,
                                                             Instant now) {
        HttpRequest request;
        try {
            String timestamp = String.valueOf(now.getEpochSecond());
            request = HttpRequest.newBuilder(endpoint.url())
                    .timeout(TIMEOUT)
                    .header("Content-Type", entry.contentType())
                    .header("webhook-id", entry.eventId())
                    .header("webhook-timestamp", timestamp)
                    .header("webhook-signature", signatures(endpoint, entry.eventId(), timestamp, entry.payload()))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(entry.payload()))
                    .build();
        } catch (RuntimeException e) {
            return unsendable(e);
        }
        return exchange(request);
    }

    /**
     * A handler's effect: its own body and {@code Content-Type}, to its URL, with
     * {@code Idempotency-Key: <source>:<eventId>:effect-<n>}, the same on every retry. Never throws, as
     * {@link #send}.
     */
    public CompletableFuture<Result> sendEffect(OutboxEntries.Due entry, String traceParent) {
        HttpRequest request;
        try {
            request = traced(HttpRequest.newBuilder(URI.create(entry.destination())), traceParent)
                    .timeout(TIMEOUT)
                    .header("Content-Type", entry.contentType())
                    .header("Idempotency-Key", entry.source() + ":" + entry.eventId() + ":effect-" + entry.effect())
                    .header("X-Hookstile-Source", entry.source())
                    .header("X-Hookstile-Event-Id", entry.eventId())
                    .POST(HttpRequest.BodyPublishers.ofByteArray(entry.payload()))
                    .build();
        } catch (RuntimeException e) {
            return unsendable(e);
        }
        return exchange(request);
    }

    /** The request continues this trace ({@code traceparent}); none for {@code null}. */
    private static HttpRequest.Builder traced(HttpRequest.Builder request, String traceParent) {
        return traceParent == null ? request : request.header(TraceParent.HEADER, traceParent);
    }

    /**
     * Why no request could be made: the client's message names the setting or header, and may quote the value, which
     * a sender may control: printable characters only, bounded.
     */
    private static CompletableFuture<Result> unsendable(RuntimeException e) {
        // The client's message may quote the URL ("Illegal character in path at index 37: https://..."): cut to
        // scheme, host and port, as everywhere it is shown.
        String message = Redacted.endpoint(String.valueOf(e.getMessage()))
                .replaceAll("[\\p{Cntrl}\\p{Zl}\\p{Zp}]", "?");
        if (message.length() > 200) {
            message = message.substring(0, 200) + "...";
        }
        return CompletableFuture.completedFuture(new Unsendable("no request could be made of this entry ("
                + e.getClass().getSimpleName() + ": " + message + ")"));
    }

    /** The request on its way; its result, never an exception: a failure to get an answer is transient. */
    private CompletableFuture<Result> exchange(HttpRequest request) {
        HttpClient current = client;
        if (current == null) {
            return CompletableFuture.completedFuture(new Transient("the application is stopping",
                    OptionalLong.empty()));
        }
        CompletableFuture<HttpResponse<Void>> exchange;
        try {
            exchange = current.sendAsync(request, HttpResponse.BodyHandlers.discarding());
        } catch (IllegalArgumentException e) {
            return unsendable(e);
        }
        return exchange.handle((response, failure) -> {
            if (failure == null) {
                return classify(response.statusCode(), response.headers().firstValue("Retry-After").orElse(null));
            }
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            // Kept as the delivery's last error, which the operator API shows: a URL in it cut to scheme, host and
            // port, as everywhere (its path may be the destination's secret).
            return new Transient(cause.getClass().getSimpleName() + ": " + Redacted.endpoint(cause.getMessage()),
                    OptionalLong.empty());
        });
    }

    static Result classify(int status, String retryAfter) {
        if (status >= 200 && status < 300) {
            return new Delivered();
        }
        if (status == 408 || status == 429 || status >= 500) {
            return new Transient("HTTP " + status, seconds(retryAfter));
        }
        return new Permanent("HTTP " + status);
    }

    /**
     * The {@code webhook-signature} header: {@code v1,<base64 HMAC>} with a secret, {@code v1a,<base64 Ed25519>} with
     * a signing key, both (space-separated, any valid one counts) with both.
     */
    static String signatures(Destination destination, String id, String timestamp, byte[] body) {
        String hmac = destination.secret() == null ? null : "v1," + signature(destination.secret(), id, timestamp,
                body);
        if (destination.signingKey() == null) {
            return hmac;
        }
        String ed25519 = "v1a," + Base64.getEncoder().encodeToString(Ed25519.sign(destination.signingKey(),
                (id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8), body));
        return hmac == null ? ed25519 : hmac + " " + ed25519;
    }

    /** The Standard Webhooks signature: base64 HMAC-SHA256 of {@code <id>.<timestamp>.<body>}. */
    static String signature(byte[] secret, String id, String timestamp, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            mac.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder().encodeToString(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available in this JVM", e);
        }
    }

    private static OptionalLong seconds(String retryAfter) {
        if (retryAfter == null) {
            return OptionalLong.empty();
        }
        try {
            long seconds = Long.parseLong(retryAfter.trim());
            return seconds >= 0 ? OptionalLong.of(seconds) : OptionalLong.empty();
        } catch (NumberFormatException e) {
            return OptionalLong.empty(); // an HTTP date: the back-off decides
        }
    }
}
