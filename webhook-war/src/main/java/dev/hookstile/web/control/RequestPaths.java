package dev.hookstile.web.control;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Recognises request paths whose meaning depends on who reads them: dot-segments ({@code .}, {@code ..}, raw or
 * percent-encoded in any case, also encoded twice, also with {@code \} or an encoded {@code /} as the separator) and
 * {@code ;} path parameters. The servlet container maps such a path one way and JAX-RS routes it another, so a filter
 * on one path can miss a resource on another. No Hookstile URL needs either.
 */
public final class RequestPaths {

    /** Decoding passes: a path encoded more often than this is refused rather than decoded further. */
    private static final int MAX_DECODINGS = 3;

    private RequestPaths() {
    }

    /**
     * Whether the raw (undecoded) request path is ambiguous. Allocation-free for paths without {@code .}, {@code %},
     * {@code ;} and {@code \}, which is every webhook URL Hookstile hands out.
     */
    public static boolean ambiguous(String raw) {
        if (raw == null || !suspicious(raw)) {
            return false;
        }
        String path = raw;
        for (int pass = 0; ; pass++) {
            if (path.indexOf(';') >= 0 || hasDotSegment(path)) {
                return true;
            }
            if (path.indexOf('%') < 0) {
                return false;
            }
            if (pass == MAX_DECODINGS) {
                return true;
            }
            String decoded = decode(path);
            if (decoded.equals(path)) {
                return false;
            }
            path = decoded;
        }
    }

    private static boolean suspicious(String raw) {
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '.' || c == '%' || c == ';' || c == '\\') {
                return true;
            }
        }
        return false;
    }

    private static boolean hasDotSegment(String path) {
        int start = 0;
        for (int i = 0; i <= path.length(); i++) {
            if (i == path.length() || path.charAt(i) == '/' || path.charAt(i) == '\\') {
                int length = i - start;
                if ((length == 1 || length == 2) && path.charAt(start) == '.'
                        && (length == 1 || path.charAt(start + 1) == '.')) {
                    return true;
                }
                start = i + 1;
            }
        }
        return false;
    }

    /** One pass of percent-decoding; a malformed escape stays as it is. */
    private static String decode(String path) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(path.length());
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '%' && i + 2 < path.length() && hex(path.charAt(i + 1)) >= 0 && hex(path.charAt(i + 2)) >= 0) {
                bytes.write(hex(path.charAt(i + 1)) << 4 | hex(path.charAt(i + 2)));
                i += 2;
            } else if (c < 0x80) {
                bytes.write(c);
            } else {
                byte[] encoded = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                bytes.write(encoded, 0, encoded.length);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static int hex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }
}
