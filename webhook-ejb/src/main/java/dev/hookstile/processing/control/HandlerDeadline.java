package dev.hookstile.processing.control;

import dev.hookstile.api.TransientFailure;
import dev.hookstile.platform.boundary.OwnThreads;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * How long the handlers of one try may run ({@code hookstile.processing.handler-timeout-seconds}): past it, the
 * consumer's thread is interrupted. A handler hung on a call without a timeout would otherwise hold its consumer
 * session for good, and as many hung handlers as sessions stop all processing. Interruptible waits (sleeps, locks,
 * the JDK's HTTP client, NIO channels) end at once; a JDBC call ends at the database's socket timeout.
 *
 * <p>One JDK timer thread, not Fault Tolerance's {@code @Timeout}: Payara schedules that on a managed executor whose
 * context capture cost a third of the consumer's CPU (profiled); arming and cancelling here is a heap insertion and
 * removal.
 */
@ApplicationScoped
class HandlerDeadline {

    @Inject
    @ConfigProperty(name = "hookstile.processing.handler-timeout-seconds", defaultValue = "60")
    int timeoutSeconds;

    private ScheduledThreadPoolExecutor timer;

    @PostConstruct
    void start() {
        timer = new ScheduledThreadPoolExecutor(1, OwnThreads.named("hookstile-handler-deadline"));
        timer.setRemoveOnCancelPolicy(true);
    }

    @PreDestroy
    void stop() {
        timer.shutdownNow();
    }

    /** The handlers of one try, under the deadline. */
    public interface Work {
        void run() throws Exception;
    }

    /**
     * Runs the work on this thread, interrupting it at the deadline.
     *
     * @throws TransientFailure when the deadline interrupted work that then failed: the event is tried again later
     */
    public void run(Work work) throws Exception {
        if (timeoutSeconds <= 0) {
            work.run();
            return;
        }
        var watch = new Watch(Thread.currentThread());
        watch.future = timer.schedule(watch::expire, timeoutSeconds, TimeUnit.SECONDS);
        boolean expired = false;
        try {
            work.run();
        } catch (Exception e) {
            expired = watch.disarm();
            if (expired) {
                throw new TransientFailure("the handlers did not finish within " + timeoutSeconds
                        + " s (hookstile.processing.handler-timeout-seconds) and were interrupted", e);
            }
            throw e;
        } finally {
            if (!expired && watch.disarm()) {
                // Finished, though late: the work is done; only the interrupt must not outlive it.
                expired = true;
            }
            if (expired) {
                Thread.interrupted();
            }
        }
    }

    private static final class Watch {
        private final Thread thread;
        private ScheduledFuture<?> future;
        private boolean done;
        private boolean expired;

        Watch(Thread thread) {
            this.thread = thread;
        }

        /** Under the lock, so that an interrupt is never delivered after {@link #disarm()} returned. */
        synchronized void expire() {
            if (!done) {
                expired = true;
                done = true;
                thread.interrupt();
            }
        }

        /** @return whether the deadline had already interrupted the work */
        synchronized boolean disarm() {
            if (!done) {
                done = true;
                future.cancel(false);
            }
            return expired;
        }
    }
}
