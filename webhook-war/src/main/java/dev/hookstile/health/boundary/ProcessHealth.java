package dev.hookstile.health.boundary;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;

/**
 * Liveness: the application is deployed and can still allocate. Dependencies are deliberately not part of it: a
 * database or broker outage must not get the instance restarted, which would not fix them.
 */
@Liveness
@ApplicationScoped
public class ProcessHealth implements HealthCheck {

    /** Below this much free heap after the last collection, the instance is better restarted. */
    private static final double MIN_FREE_HEAP = 0.02;

    @Override
    public HealthCheckResponse call() {
        long max = Runtime.getRuntime().maxMemory();
        long live = heapAfterLastCollection();
        double free = 1.0 - (double) live / max;
        return HealthCheckResponse.named("process")
                .withData("heapLiveBytes", live)
                .withData("heapMaxBytes", max)
                .status(free >= MIN_FREE_HEAP)
                .build();
    }

    /**
     * What the heap held after the last collection, not now: a heap full of garbage the next collection frees is
     * healthy, and counting it made liveness go DOWN under ordinary load.
     */
    static long heapAfterLastCollection() {
        long live = 0;
        boolean measured = false;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() != MemoryType.HEAP) {
                continue;
            }
            MemoryUsage afterCollection = pool.getCollectionUsage();
            if (afterCollection != null) {
                live += afterCollection.getUsed();
                measured = true;
            }
        }
        if (!measured) {
            Runtime runtime = Runtime.getRuntime();
            return runtime.totalMemory() - runtime.freeMemory();
        }
        return live;
    }
}
