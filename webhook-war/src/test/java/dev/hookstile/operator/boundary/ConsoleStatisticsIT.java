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
        assertEquals("http://127.0.0.1:18771", http.getString("target"),
                "scheme, host and port: a path may be a secret");
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

    @Test
    void theOverviewShowsHowManyMessagesWaitInTheEmbeddedBrokersQueues() {
        // Asked by a timer every 10 s; the embedded broker answers through its statistics plugin.
        JsonObject overview = awaitOverview("it", o -> o.getJsonObject("queue").containsKey("depth"));

        assertTrue(overview.getJsonObject("queue").getJsonNumber("depth").longValue() >= 0, overview.toString());
    }

    @Test
    void anEventIsFoundByItsIdWithOrWithoutItsSourceAndTheTypeFilterIsAPrefix() {
        String id = "stats-id-" + UUID.randomUUID();
        String type = "stats.prefix." + UUID.randomUUID();
        assertEquals(202, webhooks.send(webhooks.standard("it", id, "{\"type\":\"" + type + "\"}")).statusCode());
        webhooks.awaitRecorded("it", id, Webhooks.completed(), PROCESSING);

        assertEquals(List.of(id), eventIds("api/events?eventId=" + id));
        assertEquals(List.of(id), eventIds("api/events?source=it&eventId=" + id));
        assertEquals(List.of(), eventIds("api/events?source=gh&eventId=" + id));
        assertEquals(List.of(id), eventIds("api/events?source=it&type=" + type.substring(0, type.length() - 4)));
        assertEquals(List.of(), eventIds("api/events?source=it&type=" + type.substring(0, 13) + "%25"
                + type.substring(14)), "a % in the type is a character, not a wildcard");
    }

    @Test
    void aPageOfAnUnindexedFilterLooksAtTheNewestEventsOnlyAndItsCursorSearchesOlderOnes() {
        String type = "stats.scan." + UUID.randomUUID();
        String id = "stats-scan-" + UUID.randomUUID();
        assertEquals(202, webhooks.send(webhooks.standard("it", id, "{\"type\":\"" + type + "\"}")).statusCode());
        webhooks.awaitRecorded("it", id, Webhooks.completed(), PROCESSING);
        // Newer than it: more events than a page may look at (HOOKSTILE_OPERATOR_LIST_SCAN_EVENTS=100 in the POM).
        String filler = "stats.filler." + UUID.randomUUID();
        sendQuiet(120, filler);
        awaitPreview("{\"source\":\"quiet\",\"status\":\"ignored\",\"type\":\"" + filler + "\"}", 120);

        JsonObject first = json(webhooks.send(webhooks.operator("api/events?source=it&type=" + type).GET()).body());
        assertEquals(0, first.getJsonArray("events").size(), "only the newest 100 events were looked at: " + first);
        assertTrue(first.containsKey("next"), "and the cursor searches older ones: " + first);
        List<String> found = List.of();
        String next = first.getString("next");
        for (int page = 0; page < 20 && found.isEmpty() && next != null; page++) {
            JsonObject older = json(webhooks.send(webhooks.operator("api/events?source=it&type=" + type
                    + "&after=" + next).GET()).body());
            found = older.getJsonArray("events").getValuesAs(JsonObject.class).stream()
                    .map(e -> e.getString("eventId")).toList();
            next = older.containsKey("next") ? older.getString("next") : null;
        }
        assertEquals(List.of(id), found);
        assertEquals(List.of(id), eventIds("api/events?eventId=" + id), "an event id is answered whole");
        JsonObject received = json(webhooks.send(webhooks.operator("api/events/it/" + id).GET()).body());
        Instant at = Instant.parse(received.getString("receivedAt"));
        assertEquals(List.of(id), eventIds("api/events?source=it&type=" + type + "&until=" + at.plusMillis(1)),
                "a range in the past is searched from its own end");
    }

    private void sendQuiet(int count, String type) {
        var sends = new java.util.ArrayList<java.util.concurrent.CompletableFuture<?>>();
        var http = java.net.http.HttpClient.newHttpClient();
        for (int i = 0; i < count; i++) {
            sends.add(http.sendAsync(webhooks.standard("quiet", "stats-quiet-" + UUID.randomUUID(),
                    "{\"type\":\"" + type + "\"}").build(), HttpResponse.BodyHandlers.discarding()));
            if (sends.size() == 16) {
                sends.forEach(java.util.concurrent.CompletableFuture::join);
                sends.clear();
            }
        }
        sends.forEach(java.util.concurrent.CompletableFuture::join);
    }

    private void awaitPreview(String filter, long count) {
        long deadline = System.nanoTime() + PROCESSING.toNanos();
        while (preview(filter) < count && System.nanoTime() < deadline) {
            Webhooks.sleep(Duration.ofMillis(200));
        }
        assertEquals(count, preview(filter));
    }

    @Test
    void deadEventsAreGroupedAndAGroupIsPreviewedAndReplayedByItsTypeAndError() {
        // The test handler's error names the event: each of these dead events is a group of its own.
        String type = "stats.group." + UUID.randomUUID();
        String grouped = dead(type);
        String sameType = dead(type);
        String longer = dead(type + ".longer");
        String error = json(webhooks.send(webhooks.operator("api/events/it/" + grouped).GET()).body())
                .getString("lastError");

        HttpResponse<String> response = webhooks.send(webhooks.operator("api/dead-groups?source=it").GET());
        assertEquals(200, response.statusCode(), response.body());
        JsonObject groups = json(response.body());
        assertFalse(groups.getBoolean("sampled"));
        List<JsonObject> ours = groups.getJsonArray("groups").getValuesAs(JsonObject.class).stream()
                .filter(g -> type.equals(g.getString("type"))).toList();
        assertEquals(2, ours.size(), groups.toString());
        JsonObject group = ours.stream().filter(g -> error.equals(g.getString("error"))).findFirst().orElseThrow();
        assertEquals("it", group.getString("source"));
        assertEquals(1, group.getInt("count"));
        assertTrue(Instant.parse(group.getString("lastAt")).isAfter(Instant.now().minusSeconds(120)));

        String groupFilter = "{\"source\":\"it\",\"status\":\"dead\",\"type\":\"" + type
                + "\",\"error\":" + jsonString(error);
        assertEquals(1, preview(groupFilter + "}"));
        assertEquals(2, preview("{\"source\":\"it\",\"type\":\"" + type + "\"}"), "the whole type, dead by default");
        assertEquals(3, preview("{\"source\":\"it\",\"type\":\"" + type + "\",\"typePrefix\":true}"), "a prefix");
        assertEquals(0, preview("{\"source\":\"it\",\"type\":\"" + type + "\",\"error\":\"another\"}"));

        HttpResponse<String> started = webhooks.send(webhooks.operator("api/replays")
                .header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(groupFilter + ",\"requestId\":\""
                        + UUID.randomUUID() + "\"}")));
        assertEquals(202, started.statusCode(), started.body());
        String job = json(started.body()).getString("id");
        JsonObject done = webhooks.awaitReplayJob(job, PROCESSING);
        assertEquals("completed", done.getString("status"), done.toString());
        assertEquals(1, done.getInt("matched"), done.toString());
        // Still broken: the replay's attempt fails again, and only the group's event had one.
        webhooks.awaitRecorded("it", grouped, s -> s.getInt("attempts") == 2, PROCESSING);
        assertEquals(1, webhooks.recorded("it", sameType).getInt("attempts"), "another error: left alone");
        assertEquals(1, webhooks.recorded("it", longer).getInt("attempts"), "another type: left alone");

        HttpResponse<String> finished = webhooks.send(webhooks.operator("api/replays/" + job + "/cancel")
                .POST(java.net.http.HttpRequest.BodyPublishers.noBody()));
        assertEquals(409, finished.statusCode(), finished.body());
        HttpResponse<String> unknown = webhooks.send(webhooks.operator("api/replays/" + UUID.randomUUID()
                + "/cancel").POST(java.net.http.HttpRequest.BodyPublishers.noBody()));
        assertEquals(404, unknown.statusCode(), unknown.body());
    }

    @Test
    void aRunningBulkReplayIsCancelledBeforeItsNextPage() {
        // 250 events no handler selects (ignored): more than one page (200) of a replay job.
        String type = "stats.cancel." + UUID.randomUUID();
        sendQuiet(250, type);
        String filter = "{\"source\":\"quiet\",\"status\":\"ignored\",\"type\":\"" + type + "\"";
        awaitPreview(filter + "}", 250);

        HttpResponse<String> started = webhooks.send(webhooks.operator("api/replays")
                .header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(filter + ",\"requestId\":\""
                        + UUID.randomUUID() + "\"}")));
        assertEquals(202, started.statusCode(), started.body());
        String job = json(started.body()).getString("id");
        HttpResponse<String> cancelled = webhooks.send(webhooks.operator("api/replays/" + job + "/cancel")
                .POST(java.net.http.HttpRequest.BodyPublishers.noBody()));

        assertEquals(200, cancelled.statusCode(), cancelled.body());
        assertEquals("cancelled", json(cancelled.body()).getString("status"));
        Webhooks.sleep(Duration.ofSeconds(3));
        JsonObject after = json(webhooks.send(webhooks.operator("api/replays/" + job).GET()).body());
        assertEquals("cancelled", after.getString("status"), "not overwritten when the job stops: " + after);
        assertTrue(after.getInt("matched") <= 200, "stopped after its first page at most: " + after);
        assertTrue(after.containsKey("finishedAt"), after.toString());
    }

    @Test
    void destinationsShowTheirBreakerAndBoundedCounts() {
        HttpResponse<String> response = webhooks.send(webhooks.operator("api/destinations").GET());

        assertEquals(200, response.statusCode(), response.body());
        Map<String, JsonObject> bySource = json(response.body()).getJsonArray("destinations")
                .getValuesAs(JsonObject.class).stream().collect(Collectors.toMap(d -> d.getString("source"), d -> d,
                        (a, b) -> a));
        JsonObject fwd = bySource.get("fwd");
        assertEquals("http", fwd.getString("kind"));
        assertEquals("http://127.0.0.1:18771", fwd.getString("target"),
                "scheme, host and port: a path may be a secret");
        assertTrue(List.of("closed", "open", "half-open").contains(fwd.getString("breaker")), fwd.toString());
        assertTrue(fwd.getJsonNumber("pending").longValue() >= 0);
        assertTrue(fwd.getJsonNumber("dead").longValue() >= 0);
        JsonObject bo = bySource.get("bo");
        assertEquals("jms", bo.getString("kind"));
        assertEquals("queue:backoffice.invoices", bo.getString("target"));
        assertFalse(bo.containsKey("breaker"), bo.toString());
        assertFalse(bySource.containsKey("it"), "a source without destination has none");
    }

    private String dead(String type) {
        String id = "broken-" + UUID.randomUUID();
        assertEquals(202, webhooks.send(webhooks.standard("it", id, "{\"type\":\"" + type + "\"}")).statusCode());
        webhooks.awaitRecorded("it", id, s -> "dead".equals(s.getString("status")), PROCESSING);
        return id;
    }

    private long preview(String filter) {
        HttpResponse<String> response = webhooks.send(webhooks.operator("api/replays/preview")
                .header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(filter)));
        assertEquals(200, response.statusCode(), response.body());
        JsonObject preview = json(response.body());
        assertEquals(100_000, preview.getInt("countLimit"));
        return preview.getJsonNumber("matched").longValue();
    }

    private List<String> eventIds(String path) {
        HttpResponse<String> response = webhooks.send(webhooks.operator(path).GET());
        assertEquals(200, response.statusCode(), response.body());
        return json(response.body()).getJsonArray("events").getValuesAs(JsonObject.class).stream()
                .map(e -> e.getString("eventId")).toList();
    }

    private static String jsonString(String text) {
        return jakarta.json.Json.createValue(text).toString();
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
