package dev.hookstile.health.boundary;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

class ProcessHealthTest {

    private static final int MIB = 1024 * 1024;

    @Test
    void garbageNotYetCollectedDoesNotCountAsLiveHeap() {
        System.gc();
        long baseline = ProcessHealth.heapAfterLastCollection();
        long sink = 0;
        for (int i = 0; i < 64; i++) {
            byte[] garbage = new byte[MIB];
            sink += garbage.length;
        }

        long live = ProcessHealth.heapAfterLastCollection();

        assertTrue(sink == 64L * MIB);
        assertTrue(live < baseline + 16L * MIB,
                "64 MiB of garbage counted as live: " + (live - baseline) / MIB + " MiB more than after the last GC");
    }
}
