package dev.hookstile.test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One delivery as a provider sends it: the headers (signature, id, type, timestamp, content type) and the exact body
 * they sign, addressed to a Hookstile source. Send it with {@link #request(URI)} and the JDK's HTTP client, or hand
 * {@link #headers()} and {@link #body()} to REST Assured.
 *
 * @param source  the configured source name, the {@code {source}} of {@code POST /webhooks/{source}}
 * @param headers the request headers, in the order the provider sends them
 * @param body    the body, byte for byte as signed: shared, not copied; treat it as read-only
 */
public record SignedDelivery(String source, Map<String, String> headers, byte[] body) {

    public SignedDelivery {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(body, "body");
        headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    }

    /** The body as text (UTF-8). */
    public String bodyAsString() {
        return new String(body, StandardCharsets.UTF_8);
    }

    /** A header by its name, case-insensitively as in HTTP; {@code null} when absent. */
    public String header(String name) {
        for (Map.Entry<String, String> header : headers.entrySet()) {
            if (header.getKey().equalsIgnoreCase(name)) {
                return header.getValue();
            }
        }
        return null;
    }

    /**
     * The same delivery with one header set, or replaced whatever the case of its name: a second event id, a type
     * the signature does not cover, a tampered signature.
     */
    public SignedDelivery withHeader(String name, String value) {
        var changed = new LinkedHashMap<String, String>();
        headers.forEach((existing, old) -> changed.put(existing.equalsIgnoreCase(name) ? name : existing,
                existing.equalsIgnoreCase(name) ? value : old));
        changed.putIfAbsent(name, value);
        return new SignedDelivery(source, changed, body);
    }

    /**
     * {@code POST <hookstile>/webhooks/<source>} with this delivery's headers and body, for
     * {@code HttpClient.send}.
     *
     * @param hookstile the server's base URL, e.g. {@code http://localhost:8080/} (a path prefix is kept)
     */
    public HttpRequest.Builder request(URI hookstile) {
        String base = hookstile.toString().endsWith("/") ? hookstile.toString() : hookstile + "/";
        var request = HttpRequest.newBuilder(URI.create(base + "webhooks/" + source))
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach(request::header);
        return request;
    }
}
