package dev.hookstile.logging;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import static org.junit.jupiter.api.Assertions.assertEquals;

class JsonConsoleHandlerTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final JsonConsoleHandler handler = new JsonConsoleHandler(out);

    private List<JsonObject> lines() {
        return out.toString(StandardCharsets.UTF_8).lines().map(line -> {
            try (var reader = Json.createReader(new StringReader(line))) {
                return reader.readObject();
            }
        }).toList();
    }

    @Test
    void aRecordIsWrittenThroughAsOneJsonLine() {
        var record = new LogRecord(Level.WARNING, "Event dead");
        record.setParameters(new Object[]{Map.of("eventId", "evt_1")});

        handler.publish(record);

        assertEquals(1, lines().size(), "written at once, not held in a buffer");
        assertEquals("evt_1", lines().get(0).getString("eventId"));
    }

    @Test
    void whatIsPrintedToStandardOutputBecomesALinePerPrintedLine() {
        var printed = new PrintStream(new JsonConsoleHandler.Lines(handler), true, StandardCharsets.UTF_8);

        printed.println("JdbcRuntimeExtension,  getAllSystemRAResourcesAndPools = [x]");
        printed.print("two {0} \"lines\" \u00e9\r\nin one print\n");
        printed.print("not yet ended");

        List<JsonObject> lines = lines();
        assertEquals(3, lines.size());
        assertEquals("JdbcRuntimeExtension,  getAllSystemRAResourcesAndPools = [x]", lines.get(0).getString("message"));
        assertEquals("two {0} \"lines\" \u00e9", lines.get(1).getString("message"));
        assertEquals("in one print", lines.get(2).getString("message"));
        assertEquals("System.out", lines.get(0).getString("logger"));
        assertEquals("INFO", lines.get(0).getString("level"));
    }

    @Test
    void aPrintWithoutLineBreaksIsCutIntoBoundedLines() {
        var printed = new PrintStream(new JsonConsoleHandler.Lines(handler), true, StandardCharsets.UTF_8);

        printed.print("x".repeat(JsonConsoleHandler.Lines.LONGEST * 2 + 5));

        assertEquals(2, lines().size());
        assertEquals(JsonConsoleHandler.Lines.LONGEST, lines().get(0).getString("message").length());
    }
}
