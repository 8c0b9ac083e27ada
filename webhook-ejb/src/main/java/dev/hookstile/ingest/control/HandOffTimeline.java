package dev.hookstile.ingest.control;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Diagnostics, off unless {@code hookstile.ingest.hand-off.timeline} names a file: one line per request that was
 * handed off, how long it spent in each stage of {@link HandOff}, so that a slow ack can be placed (waiting for the
 * lookup stage, the lookup, waiting for the sender, the broker's send, waking the request). The benchmark reads it
 * ({@code BENCH_TIMELINE=1 bench/run}, docs/benchmarks.md); it holds no event data.
 *
 * <p>A line: the epoch millisecond the request woke, how many events it handed off, then the five stages in
 * microseconds. Written through a buffer flushed at most once a second and at stop, so a line costs no system call.
 */
final class HandOffTimeline {

    /** The stages' boundaries, as indexes into a hand-off's marks. */
    static final int LEFT = 0;
    static final int LOOKUP_TOOK = 1;
    static final int LOOKED_UP = 2;
    static final int SENDER_TOOK = 3;
    static final int SENT = 4;
    static final int MARKS = 5;

    private static final Logger LOG = Logger.getLogger(HandOffTimeline.class.getName());
    private static final long FLUSH_EVERY = TimeUnit.SECONDS.toNanos(1);

    private final Path file;
    private Writer out;
    private long flushedAt = System.nanoTime();

    /** A hand-off that is timed: when it passed each stage, or {@code null} when no timeline is kept. */
    interface Timed {
        long[] marks();
    }

    /** When these hand-offs passed a stage, if a timeline is kept. */
    static void mark(List<? extends Timed> handOffs, int stage) {
        if (handOffs.isEmpty() || handOffs.get(0).marks() == null) {
            return;
        }
        long now = System.nanoTime();
        for (Timed handOff : handOffs) {
            handOff.marks()[stage] = now;
        }
    }

    private HandOffTimeline(Path file, Writer out) {
        this.file = file;
        this.out = out;
    }

    /** The timeline appending to this file, or {@code null} (none) if it cannot be opened: a warning says why. */
    static HandOffTimeline appendingTo(Path file) {
        try {
            return new HandOffTimeline(file, new BufferedWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE), 1 << 16));
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.WARNING, e, () -> "The hand-off timeline cannot be written to " + file + "; none is kept");
            return null;
        }
    }

    /** A request woke at {@code woke} (nanoTime) after its events went through the stages {@code marks} holds. */
    synchronized void record(long[] marks, int events, long woke) {
        if (out == null || marks[SENT] == 0) {
            // Answered by the lookup (a duplicate) or failed: it never reached the broker.
            return;
        }
        try {
            out.append(Long.toString(System.currentTimeMillis())).append(' ').append(Integer.toString(events));
            for (int stage = LEFT; stage < SENT; stage++) {
                out.append(' ').append(Long.toString(micros(marks[stage + 1] - marks[stage])));
            }
            out.append(' ').append(Long.toString(micros(woke - marks[SENT]))).append('\n');
            if (woke - flushedAt > FLUSH_EVERY) {
                flushedAt = woke;
                out.flush();
            }
        } catch (IOException e) {
            fail(e);
        }
    }

    synchronized void close() {
        if (out == null) {
            return;
        }
        try {
            out.close();
        } catch (IOException e) {
            LOG.log(Level.FINE, "Closing the hand-off timeline failed", e);
        }
        out = null;
    }

    private void fail(IOException e) {
        LOG.log(Level.WARNING, e, () -> "The hand-off timeline could not be written to " + file + "; it stops");
        close();
    }

    private static long micros(long nanos) {
        return TimeUnit.NANOSECONDS.toMicros(nanos);
    }
}
