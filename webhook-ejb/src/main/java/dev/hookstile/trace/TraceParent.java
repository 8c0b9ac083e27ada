package dev.hookstile.trace;

import java.util.concurrent.ThreadLocalRandom;

/**
 * A W3C Trace Context {@code traceparent}: the trace's id, the id of the span that is the parent of what follows, and
 * the flags. Hookstile writes version {@code 00} only.
 *
 * @param traceId 32 lower-case hex digits, not all zero
 * @param spanId  16 lower-case hex digits, not all zero
 * @param flags   2 lower-case hex digits; {@code 01} is "sampled"
 */
public record TraceParent(String traceId, String spanId, String flags) {

    /** The HTTP header, the JMS property and the outbox column that carry it. */
    public static final String HEADER = "traceparent";
    /** The length of a version {@code 00} value. */
    public static final int LENGTH = 55;

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /**
     * The value of a {@code traceparent} header, or {@code null} when there is none or it breaks the
     * specification's rules (a version {@code ff}, upper-case or missing digits, an all-zero id, a version
     * {@code 00} value with more after it): then a new trace starts, as the specification says.
     */
    public static TraceParent parse(String value) {
        if (value == null) {
            return null;
        }
        String header = value.strip();
        if (header.length() < LENGTH || header.charAt(2) != '-' || header.charAt(35) != '-'
                || header.charAt(52) != '-') {
            return null;
        }
        String version = header.substring(0, 2);
        if (!hex(version) || version.equals("ff")
                || (version.equals("00") ? header.length() != LENGTH
                : header.length() > LENGTH && header.charAt(LENGTH) != '-')) {
            return null;
        }
        String traceId = header.substring(3, 35);
        String spanId = header.substring(36, 52);
        String flags = header.substring(53, 55);
        if (!hex(traceId) || zero(traceId) || !hex(spanId) || zero(spanId) || !hex(flags)) {
            return null;
        }
        // A later version's other flags mean nothing to version 00: only "sampled" is kept.
        return new TraceParent(traceId, spanId, (Integer.parseInt(flags, 16) & 1) == 1 ? "01" : "00");
    }

    /**
     * A new trace, marked sampled: Hookstile starts one for a delivery without a context, and the services it forwards
     * to should record their part of it.
     */
    public static TraceParent start() {
        var random = ThreadLocalRandom.current();
        long high;
        long low;
        do {
            high = random.nextLong();
            low = random.nextLong();
        } while (high == 0 && low == 0);
        return new TraceParent(hex(high) + hex(low), spanId(random), "01");
    }

    /** The same trace, with a new span as the parent of what follows. */
    public TraceParent child() {
        return new TraceParent(traceId, spanId(ThreadLocalRandom.current()), flags);
    }

    public boolean sampled() {
        return "01".equals(flags);
    }

    /** As the header carries it: {@code 00-<trace id>-<span id>-<flags>}. */
    public String header() {
        return "00-" + traceId + "-" + spanId + "-" + flags;
    }

    /** The trace id of a header Hookstile wrote ({@link #header()}), without parsing it again. */
    public static String traceIdOf(String header) {
        return header == null || header.length() < 35 ? null : header.substring(3, 35);
    }

    @Override
    public String toString() {
        return header();
    }

    private static String spanId(ThreadLocalRandom random) {
        long id;
        do {
            id = random.nextLong();
        } while (id == 0);
        return hex(id);
    }

    private static String hex(long value) {
        char[] digits = new char[16];
        for (int i = 15; i >= 0; i--) {
            digits[i] = HEX[(int) (value & 0xf)];
            value >>>= 4;
        }
        return new String(digits);
    }

    private static boolean hex(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    private static boolean zero(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) != '0') {
                return false;
            }
        }
        return true;
    }
}
