package dev.hookstile.source;

import dev.hookstile.platform.Redacted;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * An incoming delivery as a provider sees it: header lookup, the raw body and the time it arrived.
 *
 * @param headers    case-insensitive header lookup
 * @param body       the raw body; never modified
 * @param receivedAt our clock at arrival, for timestamp tolerance
 * @param url        the request URL as this server saw it (scheme, host, path, query), for providers that sign the
 *                   URL; behind a proxy it differs from the public one, so such providers prefer a configured URL
 */
public record Delivery(Headers headers, byte[] body, Instant receivedAt, String url) {

    /** A delivery whose URL no provider needs. */
    public Delivery(Headers headers, byte[] body, Instant receivedAt) {
        this(headers, body, receivedAt, null);
    }

    /** Case-insensitive access to request headers; {@code null} when absent. */
    @FunctionalInterface
    public interface Headers {
        String get(String name);
    }

    public String header(String name) {
        return headers.get(name);
    }

    /**
     * The headers worth keeping with the event, lower-cased, in the given order, with signature values replaced so
     * that nothing stored or logged could be replayed.
     */
    public Map<String, String> retain(Iterable<String> names, Set<String> signatureHeaders) {
        var kept = new LinkedHashMap<String, String>();
        for (String name : names) {
            String value = headers.get(name);
            if (value != null) {
                String key = name.toLowerCase(Locale.ROOT);
                kept.put(key, signatureHeaders.contains(key) ? Redacted.HEADER_VALUE : value);
            }
        }
        return kept;
    }
}
