package dev.hookstile.refusal.boundary;

import dev.hookstile.refusal.Refusal;
import dev.hookstile.refusal.control.RefusalSettings;
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
 * for the writer; beyond that they are dropped (and counted), never the refusal's answer delayed. An example keeps
 * its body only when its source keeps refused bodies ({@link RefusalSettings}), and only while the bodies waiting
 * stay within {@link #PENDING_BODY_BYTES}: a flood while the database is away holds a few MiB, not a thousand bodies.
 */
@ApplicationScoped
public class RefusalLog {

    /** The counted source of refusals to no configured source: not a name a source can have. */
    public static final String OTHER = "_other";
    static final int PENDING_MAX = 1000;
    static final long PENDING_BODY_BYTES = 4L * 1024 * 1024;

    @Inject
    @ConfigProperty(name = "hookstile.refusals.examples-per-minute", defaultValue = "10")
    int examplesPerMinute;

    @Inject
    RefusalSettings settings;

    private Sampler sampler;
    private final AtomicLong pendingBodyBytes = new AtomicLong();
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
            if (refusal != null) {
                offer(countedSource, refusal);
            }
        }
    }

    private void offer(String countedSource, Refusal refusal) {
        Refusal kept = settings.keepsBodies(countedSource) ? withinBodyBound(refusal) : refusal.withoutBody();
        if (!pending.offer(kept)) {
            bodiesLeft(List.of(kept));
            dropped.incrementAndGet();
        }
    }

    /** The example with its body while the bodies waiting have room for it, otherwise without. */
    private Refusal withinBodyBound(Refusal example) {
        if (example.body() == null) {
            return example;
        }
        if (pendingBodyBytes.addAndGet(example.body().length) > PENDING_BODY_BYTES) {
            pendingBodyBytes.addAndGet(-example.body().length);
            return example.withoutBody();
        }
        return example;
    }

    private void bodiesLeft(List<Refusal> examples) {
        long size = examples.stream().mapToLong(example -> example.body() == null ? 0 : example.body().length).sum();
        if (size > 0) {
            pendingBodyBytes.addAndGet(-size);
        }
    }

    /** The examples waiting, taken out. */
    List<Refusal> drainExamples() {
        var examples = new ArrayList<Refusal>();
        pending.drainTo(examples);
        bodiesLeft(examples);
        return examples;
    }

    /** The examples of a failed write, back in line while there is room. */
    void restoreExamples(List<Refusal> examples) {
        for (Refusal example : examples) {
            Refusal kept = withinBodyBound(example);
            if (!pending.offer(kept)) {
                bodiesLeft(List.of(kept));
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
