package dev.hookstile.refusal.boundary;

import dev.hookstile.refusal.Refusal;
import dev.hookstile.refusal.control.Sampler;
import dev.hookstile.source.Rejection;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Where ingest leaves each refused delivery: counted per source, reason and minute, and the first few of each minute
 * kept as examples ({@code hookstile.refusals.examples-per-minute}, 10), in memory, for {@link RefusalWriter} to
 * write off the request path. The refusal itself never waits for the database: recording it is a map lookup and an
 * atomic add, and for an example building its record and a queue offer. At most {@link #PENDING_MAX} examples wait
 * for the writer; beyond that they are dropped (and counted), never the refusal's answer delayed.
 */
@ApplicationScoped
public class RefusalLog {

    /** The counted source of refusals to no configured source: not a name a source can have. */
    public static final String OTHER = "_other";
    static final int PENDING_MAX = 1000;

    @Inject
    @ConfigProperty(name = "hookstile.refusals.examples-per-minute", defaultValue = "10")
    int examplesPerMinute;

    private Sampler sampler;
    private final LinkedBlockingQueue<Refusal> pending = new LinkedBlockingQueue<>(PENDING_MAX);
    private final AtomicLong dropped = new AtomicLong();

    @PostConstruct
    void init() {
        sampler = new Sampler(examplesPerMinute);
    }

    /**
     * A delivery refused.
     *
     * @param countedSource the configured source it named, or {@link #OTHER}: the bounded key it is counted under
     * @param example       builds the example's record, called only when one is kept
     */
    public void refused(String countedSource, Rejection reason, Supplier<Refusal> example) {
        if (sampler.count(countedSource, reason.slug(), System.currentTimeMillis()) && example != null) {
            Refusal refusal = example.get();
            if (refusal != null && !pending.offer(refusal)) {
                dropped.incrementAndGet();
            }
        }
    }

    /** The examples waiting, taken out. */
    List<Refusal> drainExamples() {
        var examples = new ArrayList<Refusal>();
        pending.drainTo(examples);
        return examples;
    }

    /** The examples of a failed write, back in line while there is room. */
    void restoreExamples(List<Refusal> examples) {
        for (Refusal example : examples) {
            if (!pending.offer(example)) {
                dropped.incrementAndGet();
            }
        }
    }

    /** Examples dropped because the writer fell behind (the database away), since the start. */
    long dropped() {
        return dropped.get();
    }

    Sampler sampler() {
        return sampler;
    }
}
