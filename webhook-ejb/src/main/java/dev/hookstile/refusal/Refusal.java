package dev.hookstile.refusal;

import dev.hookstile.api.Text;
import dev.hookstile.platform.Redacted;
import dev.hookstile.source.Rejection;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * A refused delivery as kept for the operator: what the sender sent around the body, never a signature's or a
 * secret's value, and the body as its size and SHA-256; the body itself (its first {@link #MAX_BODY} bytes) only for
 * a source whose operator asked for it ({@code HOOKSTILE_SOURCES_<NAME>_KEEP_REFUSED_BODIES}).
 *
 * @param id            the row's key, {@code 0} before it is written
 * @param at            when it was refused
 * @param source        the source named in the path, as sent (cut to {@link #MAX_SOURCE}, control characters
 *                      replaced): an unknown source is any name a sender made up
 * @param reason        the problem type's last segment ({@code invalid-signature})
 * @param status        the status answered
 * @param detail        the answer's detail: what was wrong
 * @param remoteAddress the connection's peer address (a proxy's, behind one)
 * @param headers       the request's headers, lower-cased, secret-looking values replaced ({@link Redacted#secretHeader})
 * @param bodySize      the body's size as read or declared, {@code -1} when unknown
 * @param bodySha256    the SHA-256 of the body as read, hex, or {@code null} when it was not read whole
 * @param body          the body's first {@link #MAX_BODY} bytes, or {@code null}: not kept, or not read with the
 *                      example (a list)
 * @param bodyKept      whether the body is kept (also where it was not read with the example)
 */
public record Refusal(long id, Instant at, String source, String reason, int status, String detail,
                      String remoteAddress, Map<String, String> headers, long bodySize, String bodySha256,
                      byte[] body, boolean bodyKept) {

    public static final int MAX_SOURCE = 63;
    public static final int MAX_DETAIL = 1000;
    public static final int MAX_ADDRESS = 64;
    /** The most of a refused body kept: enough to see what a proxy did to it, bounded for a flood. */
    public static final int MAX_BODY = 64 * 1024;
    static final int MAX_HEADERS = 40;
    static final int MAX_NAME = 64;
    static final int MAX_VALUE = 200;
    /**
     * The example of a refusal, from what the request carried: names and values bounded, secret-looking values
     * replaced, the body's size and SHA-256 and its first {@link #MAX_BODY} bytes (the refusal log drops them
     * unless the source keeps refused bodies).
     *
     * @param headerNames the request's header names
     * @param header      a header's first value by name
     * @param bodySize    the body's size as read, or as declared when it was not read ({@code -1}: unknown)
     * @param body        the body as read whole, or {@code null}
     */
    public static Refusal example(Instant at, String source, Rejection reason, String detail, String remoteAddress,
                                  Iterable<String> headerNames, Function<String, String> header, long bodySize,
                                  byte[] body) {
        var headers = new LinkedHashMap<String, String>();
        for (String name : headerNames) {
            if (headers.size() == MAX_HEADERS) {
                break;
            }
            String key = cut(name.toLowerCase(Locale.ROOT), MAX_NAME);
            String value = header.apply(name);
            if (value != null && !headers.containsKey(key)) {
                headers.put(key, Redacted.secretHeader(key) ? Redacted.HEADER_VALUE : cut(value, MAX_VALUE));
            }
        }
        return new Refusal(0, at, shown(source == null ? "" : source, MAX_SOURCE), reason.slug(),
                reason.status(), cut(detail == null ? reason.title() : detail, MAX_DETAIL),
                remoteAddress == null ? null : cut(remoteAddress, MAX_ADDRESS), Collections.unmodifiableMap(headers),
                body != null ? body.length : bodySize, body == null ? null : sha256(body),
                body == null ? null : Arrays.copyOf(body, Math.min(body.length, MAX_BODY)), body != null);
    }

    /** The same example without its body: the source does not keep refused bodies, or there is no room. */
    public Refusal withoutBody() {
        return body == null && !bodyKept ? this : new Refusal(id, at, source, reason, status, detail, remoteAddress,
                headers, bodySize, bodySha256, null, false);
    }

    /** Whether the body kept is its first {@link #MAX_BODY} bytes only. */
    public boolean bodyTruncated() {
        return bodyKept && bodySize > MAX_BODY;
    }

    /** As a person may read it ({@link Text#shown}), within the column's {@code max}, its "..." included. */
    private static String shown(String text, int max) {
        return Text.shown(text, text.length() <= max ? max : max - 3);
    }

    private static String cut(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max);
    }


    private static String sha256(byte[] body) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
