package dev.hookstile.ingest.control;

import dev.hookstile.source.RejectedDelivery;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Interrupts the reading thread if it is still blocked in a read at the deadline: Grizzly's blocking read waits
 * on a selector, which an interrupt wakes, and the read then fails. The interrupt is only ever delivered while the
 * thread is inside a read (under this object's lock), and cleared again before the thread leaves the read, so it
 * never reaches anything else the request thread does.
 */
final class Watchdog implements Runnable {

    private static final int IDLE = 0;
    private static final int READING = 1;
    private static final int FIRED = 2;
    private static final int DISARMED = 3;

    private final Thread reader = Thread.currentThread();
    private int state = IDLE;
    private boolean fired;
    private ScheduledFuture<?> task;

    static Watchdog arm(RequestBody.Deadline deadline, ScheduledThreadPoolExecutor watchdogs) throws RejectedDelivery {
        long remaining = deadline.remainingNanos();
        if (remaining == Long.MAX_VALUE) {
            return null;
        }
        if (remaining <= 0) {
            throw deadline.expired();
        }
        var watchdog = new Watchdog();
        watchdog.task = watchdogs.schedule(watchdog, remaining, TimeUnit.NANOSECONDS);
        return watchdog;
    }

    @Override
    public synchronized void run() {
        if (state == READING) {
            reader.interrupt();
        }
        if (state != DISARMED) {
            state = FIRED;
            fired = true;
        }
    }

    synchronized void reading() throws DeadlinePassed {
        if (state == FIRED) {
            throw new DeadlinePassed();
        }
        state = READING;
    }

    synchronized void idle() {
        if (state == FIRED) {
            // The interrupt was delivered under this lock: clear it before the thread does anything else.
            Thread.interrupted();
        } else {
            state = IDLE;
        }
    }

    synchronized boolean fired() {
        return fired;
    }

    void disarm() {
        task.cancel(false);
        synchronized (this) {
            state = DISARMED;
        }
    }
}
