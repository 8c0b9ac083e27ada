package dev.hookstile.source.boundary;

import dev.hookstile.platform.boundary.Redacted;

import java.net.URI;
import java.util.List;

/**
 * Where a source's processed events are forwarded, through the outbox: an HTTP endpoint, the Standard Webhooks
 * secret the requests are signed with, and which event types go (all when empty; {@code invoice.*} matches a prefix).
 */
public record Destination(URI url, byte[] secret, List<String> types) {

    public Destination {
        types = List.copyOf(types);
    }

    /** Whether an event of this type is forwarded. */
    public boolean forwards(String type) {
        return matches(types, type);
    }

    /** Whether a type is among the patterns (all types when there are none; {@code invoice.*} matches a prefix). */
    static boolean matches(List<String> patterns, String type) {
        return patterns.isEmpty() || patterns.stream().anyMatch(pattern -> pattern.endsWith("*")
                ? type.startsWith(pattern.substring(0, pattern.length() - 1))
                : pattern.equals(type));
    }

    @Override
    public String toString() {
        // Never the secret, nor credentials or a token in the URL: this is what logs show.
        return Redacted.url(url.toString()) + (types.isEmpty() ? "" : " " + types);
    }
}
