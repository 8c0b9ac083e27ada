package dev.hookstile.logging;

import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.logging.LogRecord;

/**
 * The quiet console's lines ({@code HOOKSTILE_LOG_FORMAT=plain}, {@code HOOKSTILE_LOG_LEVEL=warning}): like the
 * launcher's own, {@code hookstile: <message>}, a warning or an error marked so and followed by its logger; a message
 * by its first line, an exception by its own first line. The rest, the stack traces and everything else, are in the
 * log file.
 */
public class ConsoleLineFormatter extends Formatter {

    @Override
    public String format(LogRecord record) {
        var line = new StringBuilder("hookstile: ");
        boolean start = ConsoleFilter.START.equals(record.getLoggerName());
        if (!start && record.getLevel().intValue() >= Level.SEVERE.intValue()) {
            line.append("error: ");
        } else if (!start && record.getLevel().intValue() >= Level.WARNING.intValue()) {
            line.append("warning: ");
        }
        String message = formatMessage(record).strip();
        int end = message.indexOf('\n');
        line.append(end < 0 ? message : message.substring(0, end).strip() + " ...");
        Throwable thrown = record.getThrown();
        if (thrown != null) {
            String cause = String.valueOf(thrown);
            line.append(": ").append(cause.lines().findFirst().orElse(""));
        }
        if (!start && record.getLoggerName() != null) {
            line.append(" [").append(record.getLoggerName()).append(']');
        }
        return line.append(System.lineSeparator()).toString();
    }
}
