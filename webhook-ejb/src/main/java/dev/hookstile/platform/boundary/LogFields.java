package dev.hookstile.platform.boundary;

import dev.hookstile.api.WebhookEvent;
import dev.hookstile.api.Text;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The fields of a log line that an operator searches by ({@code source}, {@code eventId}, {@code attempt}, a
 * destination, counts), carried as the log record's one parameter, a {@link Map}: with
 * {@code HOOKSTILE_LOG_FORMAT=json} each is a field of its own in the line's JSON object
 * ({@code dev.hookstile.logging.JsonLineFormatter}; Payara's JSON formatter reads a map parameter the same way).
 * java.util.logging has no MDC, and a record may be formatted on another thread: the fields travel with the record.
 *
 * <p>The message says the same for the plain format, which prints no parameters: every sender-controlled part of it
 * (an event id, a type, a handler's failure message) goes through {@link Text#quoted} or {@link Text#escaped}, so that it
 * can neither start a line of its own nor make a formatter that runs {@code MessageFormat} over a message with
 * parameters (Payara's do, on seeing <code>{0</code>) drop or garble the line.
 */
public final class LogFields {

    public static final String SOURCE = "source";
    public static final String EVENT_ID = "eventId";
    public static final String ATTEMPT = "attempt";
    /** The W3C trace id of the event's trace: the same in a tracing tool, and in the plain format's message. */
    public static final String TRACE_ID = "traceId";

    private final Map<String, Object> fields = new LinkedHashMap<>(8);

    private LogFields() {
    }

    /** The fields of a line about one event. */
    public static LogFields event(String source, String eventId, int attempt) {
        return new LogFields().and(SOURCE, source).and(EVENT_ID, eventId).and(ATTEMPT, attempt);
    }

    /** The fields of a line about this event, at its attempt, with its trace. */
    public static LogFields event(WebhookEvent event) {
        return event(event.source(), event.eventId(), event.attempt()).trace(event.traceParent());
    }

    /** The trace of this W3C {@code traceparent} (version 00, as Hookstile writes it); nothing for {@code null}. */
    public LogFields trace(String traceParent) {
        return traceParent == null || traceParent.length() < 35 ? this : and(TRACE_ID, traceParent.substring(3, 35));
    }

    /** A line's first field. */
    public static LogFields of(String name, Object value) {
        return new LogFields().and(name, value);
    }

    /** One more field; a {@code null} value is left out. */
    public LogFields and(String name, Object value) {
        if (value != null) {
            fields.put(name, value);
        }
        return this;
    }

    /** What the record carries: the fields, in the order they were given. */
    public Map<String, Object> asMap() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }

    public void log(Logger logger, Level level, Supplier<String> message) {
        log(logger, level, null, message);
    }

    /** A line with these fields, when {@code logger} logs at {@code level}: the message is made only then. */
    public void log(Logger logger, Level level, Throwable thrown, Supplier<String> message) {
        if (!logger.isLoggable(level)) {
            return;
        }
        Object trace = fields.get(TRACE_ID);
        // The plain format prints no fields: the trace id, 32 hex digits, ends its message.
        LogRecord record = new LogRecord(level, trace == null ? message.get() : message.get() + " [trace " + trace + "]");
        record.setLoggerName(logger.getName());
        // Named after the class, as Hookstile's loggers are: otherwise the record would infer this class as its source.
        record.setSourceClassName(logger.getName());
        record.setSourceMethodName(null);
        record.setParameters(new Object[]{asMap()});
        record.setThrown(thrown);
        logger.log(record);
    }

    /** An event as a message names it: {@code source/"event id"}, the id {@link Text#quoted}. */
    public static String name(String source, String eventId) {
        return Text.escaped(source) + "/" + Text.quoted(eventId);
    }
}
