package dev.hookstile.platform.boundary;

import jakarta.enterprise.concurrent.ContextService;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The application's own threads: daemons that hold nothing of the deployment once they have ended.
 *
 * <p>A thread that has ended can still be referenced by the server: on Payara Server, Felix's class loaders note in a
 * map the thread that defines a class while it does, and a thread that lost the race to define the same class first
 * stays in that map for good (a heap dump after a redeploy: a Payara bundle's {@code m_classLocks} entry for
 * {@code org.apache.catalina.realm.JAASRealm} → the ended {@code hookstile-hand-off-lookup} thread). A
 * {@code ManagedThreadFactory}'s thread keeps the application's context in a field of its own, and so kept the
 * deployment, with every class and static of it, for the life of the server. The JDK drops a thread's task, thread
 * locals and access-control context when it ends, but not its context class loader: these threads clear it. Where a
 * thread needs the application's context (JNDI, the container's pools), it gets it from {@link ContextService}
 * around its task, which the thread drops when it ends, instead of from a managed thread.
 */
public final class OwnThreads {

    private OwnThreads() {
    }

    /** Threads of this name, for a pool of one. */
    public static ThreadFactory named(String name) {
        return task -> thread(name, task);
    }

    /** Threads named {@code prefix-1}, {@code prefix-2}, ... */
    public static ThreadFactory numbered(String prefix) {
        var numbers = new AtomicInteger();
        return task -> thread(prefix + "-" + numbers.incrementAndGet(), task);
    }

    /**
     * Threads of this name that run their task in the application's context as it is on the thread that creates
     * them (create them where it certainly is: a request's thread, not the health check's).
     */
    public static ThreadFactory withContext(ContextService context, String name) {
        return task -> thread(name, context.createContextualProxy(task, Runnable.class));
    }

    private static Thread thread(String name, Runnable task) {
        Thread thread = new Thread(() -> {
            try {
                task.run();
            } finally {
                Thread.currentThread().setContextClassLoader(null);
            }
        }, name);
        thread.setDaemon(true);
        return thread;
    }
}
