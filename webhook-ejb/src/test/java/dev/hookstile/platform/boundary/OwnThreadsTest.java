package dev.hookstile.platform.boundary;

import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An ended thread of the application's own, still referenced (as Payara Server's Felix class loaders may reference
 * one for good), keeps neither the deployment's class loader nor what its task referenced.
 */
class OwnThreadsTest {

    @Test
    void anEndedThreadKeepsNothingOfTheDeployment() throws Exception {
        assertNothingKept(OwnThreads.named("hookstile-test"));
    }

    @Test
    void anEndedThreadThatRanInTheApplicationsContextKeepsNothingOfIt() throws Exception {
        assertNothingKept(OwnThreads.withContext(ContextServices.none(), "hookstile-test"));
    }

    @Test
    void aPlainThreadKeepsTheClassLoaderItStartedWith() throws Exception {
        // What the other two tests would see without OwnThreads: the JDK keeps an ended thread's class loader.
        Ended ended = endedThread(task -> new Thread(task, "plain"));
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        assertNotNull(ended.loader.get(), "kept through the ended thread's context class loader");
        assertNotNull(ended.thread);
    }

    @Test
    void threadsAreDaemonsNamedAsAsked() {
        Runnable nothing = () -> { };
        Thread one = OwnThreads.named("hookstile-x").newThread(nothing);
        ThreadFactory numbered = OwnThreads.numbered("hookstile-y");
        assertEquals("hookstile-x", one.getName());
        assertTrue(one.isDaemon());
        assertEquals("hookstile-y-1", numbered.newThread(nothing).getName());
        assertEquals("hookstile-y-2", numbered.newThread(nothing).getName());
    }

    private static void assertNothingKept(ThreadFactory threads) throws Exception {
        Ended ended = endedThread(threads);
        assertNull(ended.thread.getContextClassLoader(), "the ended thread's context class loader");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while ((ended.loader.get() != null || ended.marker.get() != null) && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(20);
        }
        assertNull(ended.loader.get(), "the deployment's class loader, through the ended thread");
        assertNull(ended.marker.get(), "what the task referenced, through the ended thread");
        assertNotNull(ended.thread, "the thread itself is still referenced, as the server's map would");
    }

    /** A thread made while a deployment's class loader is the context's, run to its end; the thread kept. */
    private static Ended endedThread(ThreadFactory threads) throws Exception {
        ClassLoader before = Thread.currentThread().getContextClassLoader();
        var deployment = new URLClassLoader(new URL[0], OwnThreadsTest.class.getClassLoader());
        var marker = new Object();
        Thread thread;
        Thread.currentThread().setContextClassLoader(deployment);
        try {
            thread = threads.newThread(() -> assertNotNull(marker));
        } finally {
            Thread.currentThread().setContextClassLoader(before);
        }
        thread.start();
        thread.join(TimeUnit.SECONDS.toMillis(10));
        return new Ended(thread, new WeakReference<>(deployment), new WeakReference<>(marker));
    }

    private record Ended(Thread thread, WeakReference<ClassLoader> loader, WeakReference<Object> marker) {
    }
}
