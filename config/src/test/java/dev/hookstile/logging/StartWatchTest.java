package dev.hookstile.logging;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StartWatchTest {

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private final AtomicInteger exits = new AtomicInteger();
    private final StartWatch watch = new StartWatch(new PrintStream(printed, true, StandardCharsets.UTF_8),
            exits::incrementAndGet, "http://localhost:8080", "/data/logs/server0.log", 0);

    private static LogRecord record(Level level, String logger, String message, Object... parameters) {
        var record = new LogRecord(level, message);
        record.setLoggerName(logger);
        record.setParameters(parameters.length == 0 ? null : parameters);
        return record;
    }

    private String printed() {
        return printed.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aFailedDeploymentAfterRefusedSettingsEndsTheStartWithStatus2CountingThem() {
        watch.publish(record(Level.SEVERE, "dev.hookstile.start", "HOOKSTILE_A (hookstile.a): wrong"));
        watch.publish(record(Level.SEVERE, "dev.hookstile.start", "HOOKSTILE_B (hookstile.b): wrong"));
        watch.publish(record(Level.WARNING, "fish.payara.boot.runtime.BootCommand", "Boot Command {0} failed {1}",
                "deploy", "PlainTextActionReporterFAILURE..."));

        assertEquals(1, exits.get());
        assertTrue(printed().startsWith("hookstile: not started: 2 settings to fix, above"), printed());
        assertTrue(printed().contains("everything the server logged is in /data/logs/server0.log"), printed());
    }

    @Test
    void anyOtherFailedDeploymentEndsItNamingTheCauseOnOneLine() {
        watch.publish(record(Level.WARNING, "fish.payara.boot.runtime.BootCommand", "Boot Command deploy failed "
                + "PlainTextActionReporterFAILUREDescription: deploy AdminCommandError occurred during deployment: "
                + "Exception while loading the app : the client could not be built\n\tat some.Frame"));

        assertEquals(1, exits.get());
        assertTrue(printed().startsWith("hookstile: not started: the application's deployment failed: Exception while"
                + " loading the app : the client could not be built\n"), printed());
    }

    @Test
    void aSuccessfulBootCommandOrAnotherWarningEndsNothingAndReadySaysWhere() {
        watch.publish(record(Level.INFO, "fish.payara.boot.runtime.BootCommand", "Boot Command deploy returned with"
                + " result SUCCESS"));
        watch.publish(record(Level.WARNING, "com.example", "Boot Command deploy failed, said someone else"));
        watch.publish(record(Level.INFO, "PayaraMicro", "Payara Micro 6.2025.10 #badassmicrofish ready in 13,456 (ms)"));

        assertEquals(0, exits.get());
        assertTrue(printed().startsWith("hookstile: ready: webhooks at http://localhost:8080/webhooks/<source>,"
                + " console at http://localhost:8080/console/"), printed());
    }
}
