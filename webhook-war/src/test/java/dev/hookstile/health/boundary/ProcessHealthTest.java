package dev.hookstile.health.boundary;

import org.junit.jupiter.api.Test;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

class ProcessHealthTest {

    private static final int MIB = 1024 * 1024;

    private static long collections() {
        long count = 0;
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            count += Math.max(0, collector.getCollectionCount());
        }
        return count;
    }

    private static long usedNow() {
        Runtime runtime = Runtime.getRuntime();
        return runtime.totalMemory() - runtime.freeMemory();
    }

    @Test
    void garbageNotYetCollectedDoesNotCountAsLiveHeap() {
        // Only a try in which no collection ran between the two readings shows anything: the garbage is then in the
        // heap (the used heap says so) and must not be in the figure liveness reads. A collection in between is
        // tried again.
        for (int attempt = 0; attempt < 20; attempt++) {
            System.gc();
            long baseline = ProcessHealth.heapAfterLastCollection();
            long usedBefore = usedNow();
            long collectionsBefore = collections();
            // Small arrays, so that they go to the young generation like a request's garbage (a megabyte array is
            // allocated apart by G1 and can start a collection of its own).
            for (int i = 0; i < 16 * 16; i++) {
                byte[] garbage = new byte[MIB / 16];
                garbage[i % garbage.length] = 1;
            }
            long usedAfter = usedNow();
            long live = ProcessHealth.heapAfterLastCollection();
            if (collections() != collectionsBefore) {
                continue;
            }

            assertTrue(usedAfter - usedBefore >= 12L * MIB,
                    "the garbage is in the heap: " + (usedAfter - usedBefore) / MIB + " MiB more used");
            assertTrue(live < baseline + 8L * MIB,
                    "garbage counted as live: " + (live - baseline) / MIB + " MiB more than after the last GC");
            return;
        }
        fail("a collection ran during each of 20 tries: the test could not observe uncollected garbage");
    }
}
