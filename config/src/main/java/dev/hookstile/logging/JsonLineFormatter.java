package dev.hookstile.logging;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.Set;
import java.util.logging.Formatter;
import java.util.logging.LogRecord;

/**
 * One JSON object per line ({@code HOOKSTILE_LOG_FORMAT=json}): {@code time} (UTC, milliseconds), {@code level},
 * {@code logger}, {@code thread} (when known), {@code message}, then every entry of a {@link Map} parameter as a
 * field of its own (how Hookstile attaches {@code source}, {@code eventId}, {@code attempt}: JUL has no MDC), and
 * {@code exception} with the stack trace when the record has one.
 *
 * <p>Not Payara's {@code JSONLogFormatter}: that one runs {@code MessageFormat} over any message with
 * parameters that contains <code>{0</code> and a <code>}</code>, so a line whose message held an event id such as
 * <code>{0}</code> or <code>{0,x}</code> lost its text or vanished; its fields are named {@code Timestamp},
 * {@code LogMessage}, ...; and it builds a date format per line. Here a record whose parameters are only fields keeps
 * its message exactly as logged, and other records are formatted as {@link Formatter#formatMessage} does (which
 * never throws). Every string is escaped as JSON requires, and beyond: DEL, the C1 controls, the Unicode line
 * separators and lone surrogates too, so that no message can end a line or garble one.
 */
public class JsonLineFormatter extends Formatter {

    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
    /** Names a field from a parameter cannot take: it would repeat a key of the line. */
    static final Set<String> RESERVED = Set.of("time", "level", "logger", "thread", "message", "exception");

    @Override
    public String format(LogRecord record) {
        var line = new StringBuilder(256);
        line.append("{\"time\":\"").append(TIME.format(record.getInstant())).append('"');
        line.append(",\"level\":\"").append(record.getLevel().getName()).append('"');
        field(line, "logger", record.getLoggerName() == null ? "" : record.getLoggerName());
        // The console handler formats on the logging thread; a record formatted elsewhere keeps no thread name.
        Thread current = Thread.currentThread();
        if (current.getId() == record.getLongThreadID()) {
            field(line, "thread", current.getName());
        }
        field(line, "message", message(record));
        Object[] parameters = record.getParameters();
        if (parameters != null) {
            for (Object parameter : parameters) {
                if (parameter instanceof Map<?, ?> fields) {
                    fields.forEach((name, value) -> extra(line, String.valueOf(name), value));
                }
            }
        }
        if (record.getThrown() != null) {
            var trace = new StringWriter();
            try (var out = new PrintWriter(trace)) {
                record.getThrown().printStackTrace(out);
            }
            field(line, "exception", trace.toString());
        }
        return line.append("}\n").toString();
    }

    /**
     * The record's message: as logged when its parameters are only fields (nothing to put into it, and a
     * placeholder-like text in it is the sender's, not a placeholder); otherwise localized and filled in.
     */
    private String message(LogRecord record) {
        String message = record.getMessage();
        if (message == null) {
            return "";
        }
        Object[] parameters = record.getParameters();
        if (record.getResourceBundle() == null && (parameters == null || onlyFields(parameters))) {
            return message;
        }
        return formatMessage(record);
    }

    private static boolean onlyFields(Object[] parameters) {
        for (Object parameter : parameters) {
            if (!(parameter instanceof Map)) {
                return false;
            }
        }
        return true;
    }

    private static void extra(StringBuilder line, String name, Object value) {
        String key = RESERVED.contains(name) ? "_" + name : name;
        if (value instanceof Number || value instanceof Boolean) {
            String number = value.toString();
            // NaN and the infinities are not JSON numbers.
            if (number.chars().allMatch(c -> c == '-' || c == '.' || c == 'E' || c == '+' || (c >= '0' && c <= '9'))) {
                line.append(",\"");
                escape(line, key);
                line.append("\":").append(number);
                return;
            }
        }
        if (value == null) {
            line.append(",\"");
            escape(line, key);
            line.append("\":null");
            return;
        }
        field(line, key, String.valueOf(value));
    }

    private static void field(StringBuilder line, String name, String value) {
        line.append(",\"");
        escape(line, name);
        line.append("\":\"");
        escape(line, value);
        line.append('"');
    }

    /** The text as the inside of a JSON string, with nothing in it that a terminal or a line reader acts on. */
    static void escape(StringBuilder out, String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    boolean surrogate = Character.isSurrogate(c);
                    boolean paired = surrogate && Character.isHighSurrogate(c) && i + 1 < text.length()
                            && Character.isLowSurrogate(text.charAt(i + 1));
                    if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029'
                            || (surrogate && !paired && !lowAfterHigh(text, i))) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
    }

    private static boolean lowAfterHigh(String text, int i) {
        return Character.isLowSurrogate(text.charAt(i)) && i > 0 && Character.isHighSurrogate(text.charAt(i - 1));
    }
}
