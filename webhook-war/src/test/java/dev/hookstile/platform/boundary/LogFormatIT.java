package dev.hookstile.platform.boundary;

import dev.hookstile.it.Deployments;
import dev.hookstile.it.ItEnvironment;
import dev.hookstile.it.ServerProcess;
import dev.hookstile.it.Webhooks;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The console log as an operator's collector reads it, from servers started as the README starts them
 * ({@code ./hookstile}), standard output not a terminal. With {@code HOOKSTILE_LOG_FORMAT=json} every line of
 * standard output is one JSON object, and the lines about an event that died and was replayed carry its
 * {@code source}, {@code eventId} and {@code attempt} as fields, the id exactly as its sender wrote it. Plain, the
 * log has no colour codes, and the id cannot break its line.
 *
 * <p>The event comes from the {@code inhouse} source, whose event id is read from the signed body: there it can hold
 * what no header can (a header's bytes are ASCII). Its {@code broken-} prefix makes the test handler fail it
 * permanently, with the id in the failure's message too.
 */
class LogFormatIT {

    /**
     * What ingest lets into an id: quotes, MessageFormat placeholders (one that MessageFormat refuses, which made
     * Payara's formatters drop the whole line), an apostrophe (MessageFormat's quote), a backslash, the Unicode line
     * and paragraph separators, the C1 controls NEL and CSI (an ANSI colour after it), a right-to-left override.
     */
    private static final String HOSTILE = "\"q\" {0} {0,choice,x} it's \\ \u2028\u2029\u0085\u009b31m\u202e end";

    @Test
    void jsonLinesParseOneByOneAndCarryTheFieldsOfAnEventThatDiedAndWasReplayed() throws IOException {
        Path work = ItEnvironment.faultWorkDirectory();
        // Non-ASCII text and a character outside the BMP too: the JSON lines are UTF-8 whatever the locale.
        String id = "broken-" + UUID.randomUUID() + " " + HOSTILE + " \u00e9\u20ac\ud83d\ude00";
        String body = body(id, "{0,choice,x}");
        try (var server = new ServerProcess(work, Deployments.exportTo(work.resolve("hookstile-it.war")))) {
            server.with("HOOKSTILE_LOG_FORMAT", "json").errorsApart().start();
            Webhooks webhooks = server.webhooks();
            Instant before = Instant.now().minusSeconds(1);
            HttpRequest.Builder delivery = webhooks.inhouse(body);
            String signature = delivery.build().headers().firstValue("X-Signature").orElseThrow();

            assertEquals(202, webhooks.send(delivery).statusCode());

            JsonObject dead = awaitLine(server, line -> id.equals(text(line, "eventId"))
                    && text(line, "message").contains(" dead after "));
            assertEquals("inhouse", text(dead, "source"));
            assertEquals(1, dead.getInt("attempt"));
            assertEquals("WARNING", text(dead, "level"));
            assertEquals("dev.hookstile.processing.control.EventProcessor", text(dead, "logger"));
            assertEquals("permanent", text(dead, "failure"));

            // A bulk replay of it: a line when the job starts and one when it is done, none per event at INFO.
            HttpResponse<String> replay = webhooks.send(webhooks.operator("api/replays")
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(Json.createObjectBuilder()
                            .add("source", "inhouse").add("status", "dead").add("since", before.toString())
                            .add("requestId", UUID.randomUUID().toString()).build().toString())));
            assertEquals(202, replay.statusCode(), replay.body());
            String job = Webhooks.json(replay.body()).getString("id");
            JsonObject done = awaitLine(server, line -> job.equals(text(line, "replayJob"))
                    && "completed".equals(text(line, "status")));
            assertEquals("INFO", text(done, "level"));
            assertTrue(done.getInt("queued") >= 1, done.toString());
            JsonObject deadAgain = awaitLine(server, line -> id.equals(text(line, "eventId"))
                    && text(line, "message").contains(" dead after ") && line.getInt("attempt", 0) == 2);
            assertEquals("inhouse", text(deadAgain, "source"));

            assertTrue(server.stop(), "SIGTERM stops the server");
            List<JsonObject> lines = lines(server.output());
            assertTrue(lines.size() > 50, "Payara's and Hookstile's lines alike: " + lines.size());
            for (JsonObject line : lines) {
                for (String field : List.of("time", "level", "logger", "message")) {
                    assertTrue(line.get(field) instanceof JsonString, field + " in " + line);
                }
            }
            String output = Files.readString(server.output(), StandardCharsets.UTF_8);
            String errors = Files.readString(server.errors(), StandardCharsets.UTF_8);
            assertTrue(errors.contains("hookstile: broker: embedded"), "the launcher's lines go to standard error");
            for (String secret : List.of(signature, signature.substring("sha512=".length()), "it-inhouse-secret")) {
                assertFalse(output.contains(secret) || errors.contains(secret), "a signature or secret is logged");
            }
        }
    }

    @Test
    void plainLinesHaveNoColourCodesOffATerminalAndAnIdCannotBreakItsLineAndMetricsAreOneScrape() throws IOException {
        Path work = ItEnvironment.faultWorkDirectory();
        String prefix = "broken-" + UUID.randomUUID();
        String id = prefix + " " + HOSTILE;
        try (var server = new ServerProcess(work, Deployments.exportTo(work.resolve("hookstile-it.war")))) {
            server.start();
            Webhooks webhooks = server.webhooks();

            assertEquals(202, webhooks.send(webhooks.inhouse(body(id, "plain"))).statusCode());
            // At / (as the README starts it) Payara maps its own metrics servlet into the application: the scrape
            // is Hookstile's with the JVM's included, and nothing is served beside it.
            HttpResponse<String> scrape = webhooks.get("metrics");
            assertEquals(200, scrape.statusCode(), scrape.body());
            assertTrue(scrape.body().contains("\nhookstile_events_accepted_total{source=\"inhouse\"} "), scrape.body());
            assertTrue(scrape.body().lines().anyMatch(l -> l.startsWith("memory_usedHeap_bytes{")), scrape.body());
            assertEquals(404, webhooks.get("metrics/").statusCode(), "Payara's metrics servlet beside /metrics");

            String line = await(server.output(), text -> text.lines()
                    .filter(candidate -> candidate.contains(prefix) && candidate.contains(" dead after "))
                    .findFirst());
            assertTrue(line.contains(LogFields.name("inhouse", id)),
                    "the id whole on its line, escaped: " + line);
            String output = Files.readString(server.output(), StandardCharsets.UTF_8);
            assertFalse(output.contains("\u001b"), "an ANSI escape in output that is not a terminal");
            for (String breaking : List.of("\u2028", "\u2029", "\u0085", "\u009b", "\u202e")) {
                assertFalse(output.contains(breaking), "a sender's line separator or control character got through");
            }
            assertTrue(output.lines().noneMatch(text -> text.startsWith(" end") || text.startsWith("31m")),
                    "the rest of the id began a line of its own");
        }
    }

    private static String body(String id, String type) {
        return Json.createObjectBuilder()
                .add("meta", Json.createObjectBuilder().add("id", id).add("kind", type))
                .add("amount", 42)
                .build().toString();
    }

    private static String text(JsonObject line, String field) {
        JsonValue value = line.get(field);
        return value instanceof JsonString string ? string.getString() : "";
    }

    /** Every line of standard output, each of which must be one JSON object: a line that is not fails the test. */
    private static List<JsonObject> lines(Path output) throws IOException {
        return parse(output, wholeLines(output));
    }

    private static List<JsonObject> parse(Path output, String text) {
        var lines = new ArrayList<JsonObject>();
        List<String> all = text.lines().toList();
        for (int i = 0; i < all.size(); i++) {
            try (var reader = Json.createReader(new StringReader(all.get(i)))) {
                lines.add(reader.readObject());
            } catch (JsonException | IllegalStateException e) {
                fail("line " + (i + 1) + " of " + output + " is not a JSON object (" + e.getMessage() + "): "
                        + all.get(i));
            }
        }
        return lines;
    }

    /** The file's complete lines: the server may be writing the last one. */
    private static String wholeLines(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        int end = bytes.length;
        while (end > 0 && bytes[end - 1] != '\n') {
            end--;
        }
        return new String(bytes, 0, end, StandardCharsets.UTF_8);
    }

    /** Waits for a line of the running server's standard output that matches; every line so far must parse. */
    private static JsonObject awaitLine(ServerProcess server, Predicate<JsonObject> wanted) {
        return await(server.output(), text -> parse(server.output(), text).stream().filter(wanted).findFirst());
    }

    /** Polls the file's complete lines until {@code find} finds what it looks for, for at most a minute. */
    private static <T> T await(Path output, Function<String, Optional<T>> find) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            try {
                Optional<T> found = find.apply(wholeLines(output));
                if (found.isPresent()) {
                    return found.get();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Webhooks.sleep(Duration.ofMillis(250));
        }
        return fail("not in " + output + " within a minute");
    }
}
