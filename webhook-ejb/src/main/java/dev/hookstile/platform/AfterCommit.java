package dev.hookstile.platform;

import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

/**
 * Work done once the current transaction has committed, never when it rolls back: what follows from a row (a replay
 * counted, a replay job started) must not happen for a row that was never written.
 */
public final class AfterCommit implements Synchronization {

    private final Runnable work;

    private AfterCommit(Runnable work) {
        this.work = work;
    }

    /** Registers the work with the current transaction (interposed: after its resources have completed). */
    public static void run(TransactionSynchronizationRegistry transactions, Runnable work) {
        transactions.registerInterposedSynchronization(new AfterCommit(work));
    }

    @Override
    public void beforeCompletion() {
    }

    @Override
    public void afterCompletion(int status) {
        if (status == Status.STATUS_COMMITTED) {
            work.run();
        }
    }
}
