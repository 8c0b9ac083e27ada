package dev.hookstile.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Every thread's samples together, sorted, and the answers counted; the figures printed from them. */
final class Totals {
    long[] latencies;
    long requests, s200, s202, s2xx, other, errors, lastEnd;
    final Map<Integer, Long> otherCodes = new TreeMap<>();

    static Totals of(List<Stats> allStats) {
        Totals t = new Totals();
        int size = 0;
        for (Stats s : allStats) {
            size += s.n;
        }
        t.latencies = new long[size];
        int at = 0;
        for (Stats s : allStats) {
            System.arraycopy(s.latencies, 0, t.latencies, at, s.n);
            at += s.n;
            t.s200 += s.s200;
            t.s202 += s.s202;
            t.s2xx += s.s2xx;
            t.other += s.other;
            t.errors += s.errors;
            t.lastEnd = Math.max(t.lastEnd, s.lastEnd);
            s.otherCodes.forEach((code, count) -> t.otherCodes.merge(code, count, Long::sum));
        }
        t.requests = size;
        Arrays.sort(t.latencies);
        return t;
    }

    /** The RESULT line's common fields. */
    String line(Options o, double seconds, long cpu) {
        Totals t = this;
        StringBuilder b = new StringBuilder("RESULT mode=").append(o.mode)
                .append(" path=").append(o.path)
                .append(" connections=").append(o.mode.equals("storm") ? o.group : o.connections)
                .append(" requests=").append(t.requests)
                .append(" seconds=").append(fmt(seconds, 3))
                .append(" rate=").append(fmt(t.requests / seconds, 1));
        for (var p : new Object[][] {{"p50", 0.50}, {"p90", 0.90}, {"p99", 0.99}, {"p999", 0.999}, {"max", 1.0}}) {
            b.append(' ').append(p[0]).append('=').append(fmt(percentile(t.latencies, (Double) p[1]) / 1e6, 3));
        }
        double sum = 0;
        for (long l : t.latencies) {
            sum += l;
        }
        b.append(" mean=").append(fmt(t.requests > 0 ? sum / t.requests / 1e6 : 0, 3))
                .append(" s2xx=").append(t.s2xx)
                .append(" s200=").append(t.s200)
                .append(" s202=").append(t.s202)
                .append(" other=").append(t.other)
                .append(" errors=").append(t.errors)
                .append(" cpu_ms=").append(cpu / 1_000_000);
        if (!t.otherCodes.isEmpty()) {
            StringBuilder codes = new StringBuilder();
            t.otherCodes.forEach((code, count) -> codes.append(codes.length() > 0 ? "," : "").append(code)
                    .append(':').append(count));
            b.append(" other_codes=").append(codes);
        }
        return b.toString();
    }

    static long percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int index = (int) Math.ceil(p * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    static String fmt(double value, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", value);
    }
}
