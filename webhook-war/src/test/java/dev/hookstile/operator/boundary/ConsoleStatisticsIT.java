package dev.hookstile.operator.boundary;

import dev.hookstile.it.DeployedHookstile;
import dev.hookstile.it.Webhooks;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static dev.hookstile.it.Webhooks.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The operator API calls the console is built on, on the real server: sources with their settings and bounded counts,
 * the overview's ingest counts, waiting and dead events, health and chart.
 */
class ConsoleStatisticsIT extends DeployedHookstile {

    private static final Duration PROCESSING = Duration.ofSeconds(60);

    @Test
    void sourcesShowTheirSettingsAsUnderstoodAndBoundedCountsButNoSecret() {
        HttpResponse<String> response = webhooks.send(webhooks.operator("api/sources").GET());

        assertEquals(200, response.statusCode(), response.body());
        JsonObject listing = json(response.body());
        assertEquals(10_000, listing.getInt("countLimit"));
        Map<String, JsonObject> sources = listing.getJsonArray("sources").getValuesAs(JsonObject.class).stream()
                .collect(Collectors.toMap(s -> s.getString("name"), s -> s));
        JsonObject gh = sources.get("gh");
        assertEquals("github", gh.getString("provider"));
        assertEquals(0, gh.getInt("bodyDedupWindowSeconds"), "turned off for the tests (webhook-war/pom.xml)");
        JsonObject ghbody = sources.get("ghbody");
        assertEquals(3600, ghbody.getInt("bodyDedupWindowSeconds"));
        assertEquals(3, ghbody.getInt("retentionDays"), "1 configured, raised to GitHub's retry window");
        assertEquals(List.of("received", "completed", "ignored", "retrying", "dead"),
                List.copyOf(gh.getJsonObject("events").keySet()));
        assertEquals(List.of(), sources.get("it").getJsonArray("destinations"));
        JsonObject http = sources.get("fwd").getJsonArray("destinations").getJsonObject(0);
        assertEquals("http", http.getString("kind"));
        assertEquals("http://127.0.0.1:18771/hooks", http.getString("target"));
        JsonObject jms = sources.get("bo").getJsonArray("destinations").getJsonObject(0);
        assertEquals("jms", jms.getString("kind"));
        assertEquals("queue:backoffice.invoices", jms.getString("target"));
        assertEquals(List.of("invoice.*"), jms.getJsonArray("types").getValuesAs(JsonValue::toString).stream()
                .map(t -> t.replace("\"", "")).toList());
        assertEquals(Webhooks.TWILIO_PUBLIC_URL, sources.get("tw").getString("publicUrl"));
        assertFalse(gh.containsKey("publicUrl"), "absent values are left out");
        for (String secret : List.of(Webhooks.STANDARD_SECRET, Webhooks.GITHUB_SECRET, Webhooks.TWILIO_TOKEN,
                "whsec_dGVzdC1kZXN0aW5hdGlvbi1zZWNyZXQtMzItYnl0ZXMh", Webhooks.META_VERIFY_TOKEN)) {
            assertFalse(response.body().contains(secret), "a secret is shown: " + response.body());
        }
    }

    @Test
    void theOverviewCountsWhatIngestAnsweredPerSourceAtOnceAndInTheChartOnceTheBucketIsOver() {
        JsonObject before = overviewOf("it");
        String id = "stats-" + UUID.randomUUID();
        String body = "{\"type\":\"stats.test\"}";

        assertEquals(202, webhooks.send(webhooks.standard("it", id, body)).statusCode());
        assertEquals(200, webhooks.send(webhooks.standard("it", id, body)).statusCode());
        assertEquals(401, webhooks.send(webhooks.post("it", body).header("webhook-id", "x")
                .header("webhook-timestamp", String.valueOf(Instant.now().getEpochSecond()))
                .header("webhook-signature", "v1,AAAA")).statusCode());

        JsonObject after = overviewOf("it");
        for (String window : List.of("lastHour", "lastDay")) {
            JsonObject was = before.getJsonArray("sources").getJsonObject(0).getJsonObject(window);
            JsonObject now = after.getJsonArray("sources").getJsonObject(0).getJsonObject(window);
            for (String outcome : List.of("accepted", "duplicate", "rejected")) {
                assertTrue(now.getJsonNumber(outcome).longValue() >= was.getJsonNumber(outcome).longValue() + 1,
                        window + " " + outcome + ": before " + was + ", after " + now);
            }
        }
        JsonObject source = after.getJsonArray("sources").getJsonObject(0);
        assertEquals("it", source.getString("name"));
        assertEquals("standard-webhooks", source.getString("provider"));
        assertEquals(10_000, source.getInt("countLimit"));
        assertTrue(Instant.parse(source.getString("lastEventAt")).isAfter(Instant.now().minusSeconds(60)));
        JsonObject health = after.getJsonObject("health");
        assertEquals("UP", health.getString("database"));
        assertEquals("UP", health.getString("broker"));
        assertEquals("UP", health.getString("consumers"));
        JsonObject series = after.getJsonObject("series");
        assertEquals(10, series.getInt("bucketSeconds"));
        assertEquals(90, series.getJsonArray("accepted").size());
        Instant start = Instant.parse(series.getString("start"));
        assertEquals(0, start.toEpochMilli() % 10_000, "buckets start on ten-second boundaries");

        // The current bucket is left out of the chart until it is over.
        awaitOverview("it", o -> sum(o.getJsonObject("series").getJsonArray("accepted")) * 10 >= 1
                && sum(o.getJsonObject("series").getJsonArray("rejected")) * 10 >= 1);
    }

    @Test
    void theOverviewShowsDeadAndTheUnknownSourceIsRefused() {
        String id = "broken-stats-" + UUID.randomUUID();
        assertEquals(202, webhooks.send(webhooks.standard("it", id, "{\"type\":\"stats.dead\"}")).statusCode());
        webhooks.awaitRecorded("it", id, s -> "dead".equals(s.getString("status")), PROCESSING);

        JsonObject overview = overviewOf("it");
        assertTrue(overview.getJsonArray("sources").getJsonObject(0).getJsonNumber("dead").longValue() >= 1);
        JsonObject all = json(webhooks.send(webhooks.operator("api/overview").GET()).body());
        assertTrue(all.getJsonArray("sources").size() > 1, "every source without ?source=");

        HttpResponse<String> unknown = webhooks.send(webhooks.operator("api/overview?source=nope").GET());
        assertEquals(404, unknown.statusCode(), unknown.body());
    }

    private JsonObject overviewOf(String source) {
        HttpResponse<String> response = webhooks.send(webhooks.operator("api/overview?source=" + source).GET());
        assertEquals(200, response.statusCode(), response.body());
        assertEquals("no-store", response.headers().firstValue("Cache-Control").orElse("no-store"));
        JsonObject overview = json(response.body());
        assertEquals(1, overview.getJsonArray("sources").size(), overview.toString());
        return overview;
    }

    private JsonObject awaitOverview(String source, Predicate<JsonObject> condition) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        JsonObject last;
        do {
            last = overviewOf(source);
            if (condition.test(last)) {
                return last;
            }
            Webhooks.sleep(Duration.ofMillis(500));
        } while (System.nanoTime() < deadline);
        return fail("the overview never showed it: " + last);
    }

    private static double sum(JsonArray rates) {
        return rates.getValuesAs(JsonNumber.class).stream().mapToDouble(JsonNumber::doubleValue).sum();
    }
}
