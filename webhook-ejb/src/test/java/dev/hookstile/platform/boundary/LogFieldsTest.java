package dev.hookstile.platform.boundary;

import dev.hookstile.api.Text;
import dev.hookstile.api.WebhookEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LogFieldsTest {

    private static final String HOSTILE = "evt \"quoted\" {0} {0,choice,x} it's \\ \u00e9\u2028\u0085\u009b\u202e\u001b[31m";

    private final Logger logger = Logger.getLogger("dev.hookstile.test.LogFieldsTest");
    private final List<LogRecord> records = new ArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            records.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void capture() {
        logger.setUseParentHandlers(false);
        logger.addHandler(capture);
        logger.setLevel(Level.INFO);
    }

    @AfterEach
    void release() {
        logger.removeHandler(capture);
    }

    @Test
    void anEventsFieldsAreItsSourceIdAndAttemptInThatOrderWithTheIdUntouched() {
        var event = new WebhookEvent("it", "standard-webhooks", HOSTILE, "t", Instant.EPOCH, 3, Map.of(), new byte[0]);

        Map<String, Object> fields = LogFields.event(event).and("failure", "permanent").asMap();

        assertEquals(List.of("source", "eventId", "attempt", "failure"), List.copyOf(fields.keySet()));
        assertEquals(HOSTILE, fields.get("eventId"), "a field carries the id exactly; the formatter escapes it");
        assertEquals(3, fields.get("attempt"));
    }

    @Test
    void aLineAboutATracedEventCarriesItsTraceIdAsAFieldAndAtTheEndOfItsMessage() {
        var event = new WebhookEvent("it", "standard-webhooks", "evt_1", "t", Instant.EPOCH, 1, Map.of(), new byte[0],
                null, false, "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");

        LogFields.event(event).log(logger, Level.WARNING, () -> "Event dead");

        LogRecord record = records.get(0);
        assertEquals("Event dead [trace 4bf92f3577b34da6a3ce929d0e0e4736]", record.getMessage());
        assertEquals("4bf92f3577b34da6a3ce929d0e0e4736",
                ((Map<?, ?>) record.getParameters()[0]).get(LogFields.TRACE_ID));
    }

    @Test
    void aNullValueIsLeftOut() {
        assertEquals(Map.of("source", "it"), LogFields.of("source", "it").and("destination", null).asMap());
    }

    @Test
    void aLineCarriesTheFieldsAsItsOneParameterAndTheException() {
        var failure = new IllegalStateException("boom");

        LogFields.event("it", "evt_1", 2).log(logger, Level.WARNING, failure, () -> "Event dead");

        assertEquals(1, records.size());
        LogRecord record = records.get(0);
        assertEquals(Level.WARNING, record.getLevel());
        assertEquals("Event dead", record.getMessage());
        assertEquals(logger.getName(), record.getLoggerName());
        assertEquals(Map.of("source", "it", "eventId", "evt_1", "attempt", 2), record.getParameters()[0]);
        assertEquals(1, record.getParameters().length);
        assertSame(failure, record.getThrown());
    }

    @Test
    void aLineBelowTheLoggersLevelIsNeitherWrittenNorItsMessageMade() {
        LogFields.event("it", "evt_1", 1).log(logger, Level.FINE, () -> {
            throw new AssertionError("the message of a line nobody logs was made");
        });

        assertTrue(records.isEmpty());
    }

    @Test
    void printableTextHasNoCharacterThatCouldEndTheLineRecolourItOrFillAPlaceholder() {
        String printable = Text.escaped(HOSTILE);

        assertEquals("evt \"quoted\" \\u007b0\\u007d \\u007b0,choice,x\\u007d it's \\\\ \u00e9\\u2028\\u0085\\u009b"
                + "\\u202e\\u001b[31m", printable);
        assertTrue(printable.chars().allMatch(c -> c >= 0x20 && c < 0x7f || c == '\u00e9'), printable);
    }

    @Test
    void quotedTextCannotCloseItsQuotes() {
        assertEquals("\"a\\\" attempt=9 \\\\\"", Text.quoted("a\" attempt=9 \\"));
        assertEquals("it/\"evt_1\"", LogFields.name("it", "evt_1"));
    }

    @Test
    void ordinaryTextIsLeftAsItIs() {
        String id = "evt_1NG8Du2eZvKYlo2CUI79vXWy";
        assertSame(id, Text.escaped(id));
        assertEquals("order 42 \u00e9\u20ac", Text.escaped("order 42 \u00e9\u20ac"));
    }

    @Test
    void payarasFormattersKeepAnEscapedMessageWhole() {
        // Payara's console formatters run MessageFormat over a message with parameters once it holds "{0" and "}":
        // an id of "{0}" took the fields' text, and "{0,x}" dropped the whole line. An escaped one holds no brace.
        String message = "Event " + LogFields.name("it", HOSTILE) + " dead";
        assertFalse(message.contains("{") || message.contains("}"), message);
        var record = new LogRecord(Level.WARNING, message);
        record.setParameters(new Object[]{Map.of("source", "it")});
        assertEquals(message, new SimpleFormatter().formatMessage(record));
    }
}
