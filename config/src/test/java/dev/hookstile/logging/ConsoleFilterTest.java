package dev.hookstile.logging;

import org.junit.jupiter.api.Test;

import java.util.logging.Level;
import java.util.logging.LogRecord;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConsoleFilterTest {

    private static LogRecord record(Level level, String logger, String message) {
        var record = new LogRecord(level, message);
        record.setLoggerName(logger);
        return record;
    }

    @Test
    void aQuietConsoleShowsTheStartsLinesAndEveryWarningButPayarasChatter() {
        var quiet = new ConsoleFilter(Level.WARNING);

        assertTrue(quiet.isLoggable(record(Level.INFO, "dev.hookstile.start", "source pay: stripe")));
        assertTrue(quiet.isLoggable(record(Level.WARNING, "dev.hookstile.source.boundary.Sources", "short secret")));
        assertTrue(quiet.isLoggable(record(Level.SEVERE, "javax.enterprise.system.core", "something broke")));
        assertFalse(quiet.isLoggable(record(Level.INFO, "javax.enterprise.ejb.container", "JNDI names for EJB X")));
        assertFalse(quiet.isLoggable(record(Level.WARNING, "com.hazelcast.instance.impl.Node",
                "[127.0.0.1]:6900 No join method is enabled! Starting standalone.")));
        assertFalse(quiet.isLoggable(record(Level.SEVERE, "javax.enterprise.system.core",
                "Exception while loading the app : CDI definition failure")), "StartWatch says it in one line");
    }

    @Test
    void aVerboseConsoleShowsEverythingAtItsLevel() {
        var verbose = new ConsoleFilter(Level.INFO);

        assertTrue(verbose.isLoggable(record(Level.INFO, "javax.enterprise.ejb.container", "JNDI names for EJB X")));
        assertTrue(verbose.isLoggable(record(Level.WARNING, "com.hazelcast.instance.impl.Node",
                "No join method is enabled! Starting standalone.")));
        assertFalse(verbose.isLoggable(record(Level.FINE, "dev.hookstile.processing", "a try")));
    }
}
