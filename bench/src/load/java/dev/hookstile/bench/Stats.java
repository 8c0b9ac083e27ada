package dev.hookstile.bench;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** One thread's samples: only its thread writes, read after join. */
final class Stats {

    /** --slow-ms in nanoseconds, 0 for off; set once before the workers start. */
    static volatile long slowNanos;

    long[] latencies = new long[1 << 14];
    int n;
    /** Requests slower than --slow-ms: their due time and latency, in pairs. */
    long[] slow = new long[0];
    int slowCount;
    long s200, s202, s2xx, other, errors, lastEnd;
    int errorsPrinted;
    final Map<Integer, Long> otherCodes = new TreeMap<>();

    void add(long latency, int status, long end) {
        if (n == latencies.length) {
            latencies = Arrays.copyOf(latencies, n * 2);
        }
        latencies[n++] = latency;
        lastEnd = end;
        if (slowNanos > 0 && latency > slowNanos) {
            if (2 * slowCount + 2 > slow.length) {
                slow = Arrays.copyOf(slow, Math.max(64, slow.length * 2));
            }
            slow[2 * slowCount] = end - latency;
            slow[2 * slowCount + 1] = latency;
            slowCount++;
        }
        if (status >= 200 && status < 300) {
            s2xx++;
            if (status == 200) {
                s200++;
            } else if (status == 202) {
                s202++;
            }
        } else {
            other++;
            otherCodes.merge(status, 1L, Long::sum);
        }
    }

    /** The timeline of the tail: when each slow request was due, in order. */
    static void printSlow(List<Stats> allStats, long t0) {
        var slow = new ArrayList<long[]>();
        for (Stats s : allStats) {
            for (int i = 0; i < s.slowCount; i++) {
                slow.add(new long[]{s.slow[2 * i], s.slow[2 * i + 1]});
            }
        }
        slow.sort((a, b) -> Long.compare(a[0], b[0]));
        for (long[] request : slow) {
            long epochMs = System.currentTimeMillis() - (System.nanoTime() - request[0]) / 1_000_000;
            System.err.println("SLOW due=" + Totals.fmt((request[0] - t0) / 1e6, 1) + " ms=" + Totals.fmt(request[1] / 1e6, 2)
                    + " at=" + Instant.ofEpochMilli(epochMs));
        }
    }
}
