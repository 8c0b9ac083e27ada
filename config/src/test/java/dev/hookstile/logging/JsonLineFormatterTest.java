package dev.hookstile.logging;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JsonLineFormatterTest {

    // What a sender may put into an event id (no ASCII control character gets past ingest) and more.
    private static final String HOSTILE = "evt \"q\" {0} {0,choice,x} it's \\ \u00e9 \ud83d\ude00 \u2028\u2029\u0085\u009b"
            + "\u007f\u001b[31m\n\r\t";

    private final JsonLineFormatter formatter = new JsonLineFormatter();

    private static LogRecord record(Level level, String message, Object... parameters) {
        var record = new LogRecord(level, message);
        record.setLoggerName("dev.hookstile.processing.control.EventProcessor");
        record.setInstant(Instant.parse("2026-11-26T01:02:03.456789Z"));
        record.setParameters(parameters.length == 0 ? null : parameters);
        return record;
    }

    private static Map<String, Object> eventFields(String eventId, int attempt) {
        var fields = new LinkedHashMap<String, Object>();
        fields.put("source", "it");
        fields.put("eventId", eventId);
        fields.put("attempt", attempt);
        return fields;
    }

    /** The line, checked to be one line that parses as one JSON object. */
    private JsonObject line(LogRecord record) {
        String line = formatter.format(record);
        assertTrue(line.endsWith("\n"), "ends its line");
        String body = line.substring(0, line.length() - 1);
        assertFalse(body.contains("\n") || body.contains("\r"), "one line: " + line);
        assertTrue(body.chars().noneMatch(c -> c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x2028 || c == 0x2029),
                "nothing a terminal or a line reader acts on: " + body);
        try (var reader = Json.createReader(new StringReader(body))) {
            return reader.readObject();
        }
    }

    @Test
    void aLineHasTimeLevelLoggerAndMessage() {
        JsonObject line = line(record(Level.INFO, "Retention run: deleted 0 events"));

        assertEquals("2026-11-26T01:02:03.456Z", line.getString("time"));
        assertEquals("INFO", line.getString("level"));
        assertEquals("dev.hookstile.processing.control.EventProcessor", line.getString("logger"));
        assertEquals("Retention run: deleted 0 events", line.getString("message"));
    }

    @Test
    void theFieldsOfAMapParameterAreFieldsOfTheirOwnWithTheHostileIdExactly() {
        JsonObject line = line(record(Level.WARNING, "Event dead", eventFields(HOSTILE, 3)));

        assertEquals("it", line.getString("source"));
        assertEquals(HOSTILE, line.getString("eventId"));
        assertEquals(3, line.getInt("attempt"), "a number stays a number");
        assertEquals("WARNING", line.getString("level"));
    }

    @Test
    void aMessageWithOnlyFieldsIsKeptAsLoggedPlaceholdersAndQuotesIncluded() {
        // Payara's JSONLogFormatter put the map's text into "{0}" and dropped a line holding "{0,choice,x}".
        JsonObject line = line(record(Level.WARNING, "Event it/" + HOSTILE + " dead", eventFields(HOSTILE, 1)));

        assertEquals("Event it/" + HOSTILE + " dead", line.getString("message"));
    }

    @Test
    void otherParametersAreFilledInAsJavaUtilLoggingDoes() {
        assertEquals("Deployed 2 archives", line(record(Level.INFO, "Deployed {0} archives", 2)).getString("message"));
        assertEquals("{0,nonsense}", line(record(Level.INFO, "{0,nonsense}", "x")).getString("message"),
                "a pattern MessageFormat refuses is printed as it is, never dropped");
    }

    @Test
    void anExceptionIsOneFieldWithItsStackTrace() {
        LogRecord record = record(Level.SEVERE, "failed", eventFields("evt_1", 2));
        record.setThrown(new IllegalStateException("boom\nsecond line"));

        JsonObject line = line(record);

        assertTrue(line.getString("exception").startsWith("java.lang.IllegalStateException: boom\nsecond line"),
                line.getString("exception"));
        assertTrue(line.getString("exception").contains("\tat dev.hookstile.logging.JsonLineFormatterTest"));
        assertEquals("evt_1", line.getString("eventId"));
    }

    @Test
    void aFieldCannotReplaceOneOfTheLinesOwnKeys() {
        var fields = new LinkedHashMap<String, Object>();
        fields.put("message", "forged");
        fields.put("level", "DEBUG");
        fields.put("count", null);
        fields.put("ratio", Double.NaN);

        JsonObject line = line(record(Level.INFO, "real", fields));

        assertEquals("real", line.getString("message"));
        assertEquals("INFO", line.getString("level"));
        assertEquals("forged", line.getString("_message"));
        assertEquals("DEBUG", line.getString("_level"));
        assertEquals(JsonValue.NULL, line.get("count"));
        assertEquals("NaN", line.getString("ratio"), "not a JSON number: a string");
    }

    @Test
    void aLoneSurrogateIsEscapedNotTurnedIntoAQuestionMark() {
        JsonObject line = line(record(Level.INFO, "half \ud83d of a pair", eventFields("\ude00", 1)));

        assertEquals("half \ud83d of a pair", line.getString("message"));
        assertEquals("\ude00", line.getString("eventId"));
    }

    @Test
    void aMissingMessageOrLoggerIsAnEmptyString() {
        var record = new LogRecord(Level.INFO, null);

        JsonObject line = line(record);

        assertEquals("", line.getString("message"));
        assertEquals("", line.getString("logger"));
    }
}
