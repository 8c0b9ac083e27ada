package dev.hookstile.logging;

import java.io.PrintStream;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Watches Payara Micro's boot for the launcher: a boot command that fails (the application's deployment above all)
 * ends the process with a non-zero status before the next command, the one that opens the HTTP listener, can run.
 * A server whose application did not deploy otherwise went on, opened its port and answered {@code /health/ready}
 * with {@code UP} and every webhook with {@code 404}: a load balancer would have sent it traffic.
 *
 * <p>Boot commands run one after the other on the main thread, which logs each result before it runs the next
 * ({@code fish.payara.boot.runtime.BootCommand}); this handler blocks that thread on a failure and exits from another
 * one. It also says when the server is ready and where.
 *
 * <p>Settings from the logging properties: {@code .url} (the base URL, {@code http://localhost:8080}), {@code .file}
 * (the log file, named in the failure message) and {@code .launched} (when the launcher started, epoch milliseconds).
 */
public class StartWatch extends Handler {

    /** The exit status of a configuration the application refused, as {@code ./hookstile check}'s. */
    static final int INVALID_SETTINGS = 2;
    /** The exit status of any other failed start. */
    static final int FAILED = 1;

    private static final String BOOT_COMMAND = "fish.payara.boot.runtime.BootCommand";
    private static final Pattern FAILED_COMMAND = Pattern.compile("Boot Command (\\S+) failed");
    private static final Pattern READY = Pattern.compile("ready in ([\\d,.]+) \\(ms\\)");

    /** Formats a record's message with its parameters and resource bundle, as the console shows it. */
    private static final java.util.logging.Formatter TEXT = new java.util.logging.SimpleFormatter();

    private final PrintStream out;
    private final Runnable exit;
    private final String url;
    private final String file;
    private final long launched;
    private final AtomicInteger refusedSettings = new AtomicInteger();
    private volatile String firstError;
    private volatile int status = -1;

    public StartWatch() {
        this(System.err, null, property("url", "http://localhost:8080"), property("file", "the log file"),
                Long.parseLong(property("launched", "0")));
    }

    StartWatch(PrintStream out, Runnable exit, String url, String file, long launched) {
        this.out = out;
        this.exit = exit;
        this.url = url;
        this.file = file;
        this.launched = launched;
        setLevel(Level.ALL);
    }

    private static String property(String name, String fallback) {
        String value = LogManager.getLogManager().getProperty(StartWatch.class.getName() + "." + name);
        return value == null || value.isBlank() ? fallback : value.trim();
    }

    @Override
    public void publish(LogRecord record) {
        if (record == null || status >= 0) {
            return;
        }
        String message = TEXT.formatMessage(record);
        message = message == null ? "" : message;
        int level = record.getLevel().intValue();
        if (ConsoleFilter.START.equals(record.getLoggerName()) && level >= Level.SEVERE.intValue()) {
            refusedSettings.incrementAndGet();
        } else if (level >= Level.SEVERE.intValue() && firstError == null) {
            firstError = firstLine(message + (record.getThrown() == null ? "" : ": " + record.getThrown()));
        }
        if (BOOT_COMMAND.equals(record.getLoggerName()) && level >= Level.WARNING.intValue()) {
            Matcher failed = FAILED_COMMAND.matcher(message);
            if (failed.find()) {
                fail(failed.group(1), message);
            }
        } else if ("PayaraMicro".equals(record.getLoggerName())) {
            Matcher ready = READY.matcher(message);
            if (ready.find()) {
                ready();
            }
        }
    }

    private void ready() {
        String took = launched > 0 ? String.format("%.1f s", (System.currentTimeMillis() - launched) / 1000.0) : "";
        out.println("hookstile: ready" + (took.isEmpty() ? "" : " in " + took) + ": webhooks at " + url
                + "/webhooks/<source>, console at " + url + "/console/, health at " + url + "/health");
        out.flush();
    }

    private void fail(String command, String message) {
        int settings = refusedSettings.get();
        status = settings > 0 ? INVALID_SETTINGS : FAILED;
        if (settings > 0) {
            out.println("hookstile: not started: " + settings + (settings == 1 ? " setting" : " settings")
                    + " to fix, above (./hookstile check shows them without starting)");
        } else {
            String reason = message;
            int cause = reason.indexOf("Error occurred during deployment: ");
            if (cause >= 0) {
                reason = reason.substring(cause + "Error occurred during deployment: ".length());
            } else if (firstError != null) {
                reason = firstError;
            }
            out.println("hookstile: not started: the " + ("deploy".equals(command) ? "application's deployment"
                    : "boot command " + command) + " failed: " + firstLine(reason));
        }
        out.println("hookstile: everything the server logged is in " + file);
        out.flush();
        // What the server prints while it stops (a JDBC clean-up's line, "Payara Micro STOPPED.") would only bury the
        // lines above.
        System.setOut(new PrintStream(java.io.OutputStream.nullOutputStream()));
        System.setErr(new PrintStream(java.io.OutputStream.nullOutputStream()));
        if (exit != null) {
            exit.run();
            return;
        }
        int code = status;
        // A second thread exits: shutdown hooks may wait for what this (the boot) thread holds. If they still do not
        // finish, the process ends anyway; nothing was acknowledged yet, the listener never opened.
        Thread exiting = new Thread(() -> System.exit(code), "hookstile-failed-start");
        exiting.start();
        Thread watchdog = new Thread(() -> {
            try {
                TimeUnit.SECONDS.sleep(10);
            } catch (InterruptedException ignored) {
                // Halting anyway.
            }
            Runtime.getRuntime().halt(code);
        }, "hookstile-failed-start-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        while (true) {
            try {
                TimeUnit.HOURS.sleep(1);
            } catch (InterruptedException ignored) {
                // The boot thread must not run the next command; the process is ending.
            }
        }
    }

    private static String firstLine(String text) {
        String line = text.strip();
        int end = line.indexOf('\n');
        line = end < 0 ? line : line.substring(0, end).strip();
        return line.length() > 400 ? line.substring(0, 400) + "..." : line;
    }

    @Override
    public void flush() {
        out.flush();
    }

    @Override
    public void close() {
        flush();
    }
}
