package dev.hookstile.operator.boundary;

import dev.hookstile.it.DeployedHookstile;
import dev.hookstile.it.Webhooks;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import static dev.hookstile.it.Webhooks.completed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Events are found by what is inside them: the search keys of their source ({@code it}: {@code /customer} and
 * {@code /order/id}), written with the claim, read newest first in cursor pages, dead events included.
 */
class SearchIT extends DeployedHookstile {

    private static final Duration PROCESSING = Duration.ofSeconds(60);

    @Test
    void everyEventOfACustomerIsFoundByItsKeyNewestFirstInPagesDeadOnesIncluded() {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String customer = "cus_" + run + " <b>&amp;";
        String first = "search-" + run + "-1";
        String dead = "broken-search-" + run;
        String last = "search-" + run + "-3";
        String other = "search-" + run + "-other";
        send(first, "{\"type\":\"search.test\",\"customer\":" + json(customer) + "}");
        send(dead, "{\"type\":\"search.test\",\"customer\":" + json(customer) + ",\"order\":{\"id\":\"o-" + run + "\"}}");
        send(other, "{\"type\":\"search.test\",\"customer\":\"cus_someone_else\"}");
        send(last, "{\"type\":\"search.test\",\"customer\":" + json(customer) + "}");
        webhooks.awaitRecorded("it", first, completed(), PROCESSING);
        webhooks.awaitRecorded("it", dead, state -> "dead".equals(state.getString("status")), PROCESSING);
        webhooks.awaitRecorded("it", last, completed(), PROCESSING);
        webhooks.awaitRecorded("it", other, completed(), PROCESSING);

        JsonObject page = events("key=" + encode("customer:" + customer) + "&limit=2");
        assertEquals(List.of(last, dead), ids(page), "newest first");
        JsonObject next = events("key=" + encode("customer:" + customer) + "&limit=2&after=" + page.getString("next"));
        assertEquals(List.of(first), ids(next));
        assertFalse(next.containsKey("next"), "the last page");

        assertEquals(List.of(dead), ids(events("key=" + encode("customer:" + customer) + "&status=dead")),
                "with the other filters");
        assertEquals(List.of(dead), ids(events("key=" + encode("/order/id:o-" + run))), "by its pointer");
        assertEquals(List.of(), ids(events("key=" + encode("customer:cus_" + run))), "the whole value, not a part");

        // The same search selects a bulk replay, counted first: the dead event, fixed, is replayed and completes.
        fix(dead);
        String filter = "{\"key\":" + json("customer:" + customer) + "}";
        assertEquals(1, post("api/replays/preview", filter).getJsonNumber("matched").longValue());
        post("api/replays", "{\"key\":" + json("customer:" + customer) + ",\"requestId\":\"search-" + run + "\"}");
        JsonObject replayed = webhooks.awaitRecorded("it", dead, completed(), PROCESSING);
        assertEquals(1, replayed.getInt("effects"), "processed once, by the replay");
    }

    @Test
    void eventsAreFoundByAJsonFragmentOfTheirBodyAndAHostileBodyBreaksNoSearch() {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String failed = "match-" + run + "-failed";
        String paid = "match-" + run + "-paid";
        String nul = "match-" + run + "-nul";
        send(failed, "{\"type\":\"search.test\",\"data\":{\"object\":{\"run\":\"" + run + "\",\"status\":\"failed\","
                + "\"amount\":1000}}}");
        send(paid, "{\"type\":\"search.test\",\"data\":{\"object\":{\"run\":\"" + run + "\",\"status\":\"paid\"}}}");
        // jsonb refuses a NUL escape: such a body is no match, never the search's error.
        send(nul, "{\"type\":\"search.test\",\"data\":{\"object\":{\"run\":\"" + run + "\",\"status\":\"failed\","
                + "\"note\":\"\\u0000\"}}}");
        webhooks.awaitRecorded("it", failed, completed(), PROCESSING);
        webhooks.awaitRecorded("it", paid, completed(), PROCESSING);
        webhooks.awaitRecorded("it", nul, completed(), PROCESSING);

        JsonObject page = events("source=it&match=" + encode("{\"data\":{\"object\":{\"run\":\"" + run
                + "\",\"status\":\"failed\",\"amount\":1000.0}}}"));

        assertEquals(List.of(failed), ids(page));
        JsonObject scan = page.getJsonObject("scan");
        assertTrue(scan.getInt("limit") > 0 && scan.containsKey("reached"), "the answer says how far it looked: " + scan);
        assertEquals(List.of(paid, failed), ids(events("source=it&match=" + encode("{\"data\":{\"object\":{\"run\":\""
                + run + "\"}}}"))), "newest first; the body jsonb refuses (a NUL escape) is no match on PostgreSQL");
    }

    @Test
    void aBulkReplayByABodyFragmentOrAHeaderCountsFirstAndReplaysOnlyTheEventsThatMatch() {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String since = java.time.Instant.now().minusSeconds(60).toString();
        String failed = "broken-fragment-" + run + "-failed";
        String paid = "broken-fragment-" + run + "-paid";
        send(failed, "{\"type\":\"search.test\",\"data\":{\"object\":{\"run\":\"" + run
                + "\",\"status\":\"failed\"}}}");
        HttpResponse<String> sent = webhooks.send(webhooks.standard("it", paid, "{\"type\":\"search.test\",\"data\":"
                + "{\"object\":{\"run\":\"" + run + "\",\"status\":\"paid\"}}}").header("User-Agent", "tenant-" + run));
        assertEquals(202, sent.statusCode(), sent.body());
        webhooks.awaitRecorded("it", failed, state -> "dead".equals(state.getString("status")), PROCESSING);
        webhooks.awaitRecorded("it", paid, state -> "dead".equals(state.getString("status")), PROCESSING);
        fix(failed);
        fix(paid);

        String byBody = "{\"source\":\"it\",\"since\":\"" + since + "\",\"match\":{\"data\":{\"object\":{\"run\":\""
                + run + "\",\"status\":\"failed\"}}}";
        JsonObject preview = post("api/replays/preview", byBody + "}");
        assertEquals(1, preview.getJsonNumber("matched").longValue(), preview.toString());
        assertTrue(preview.getJsonNumber("selected").longValue() >= 2, "the dead events the other filters select: "
                + preview);
        assertEquals(preview.getJsonNumber("selected").longValue(), preview.getJsonNumber("checked").longValue(),
                "all of them read: the count is exact");
        assertEquals(1, post("api/replays/preview", "{\"source\":\"it\",\"since\":\"" + since
                + "\",\"header\":\"user-agent:tenant-" + run + "\"}").getJsonNumber("matched").longValue(), "by a retained header's value");

        JsonObject job = post("api/replays", byBody + ",\"requestId\":\"fragment-" + run + "\"}");
        JsonObject done = webhooks.awaitReplayJob(job.getString("id"), PROCESSING);
        assertEquals("completed", done.getString("status"), done.toString());
        assertEquals(1, done.getInt("matched"), "only the event whose body matches: " + done);
        assertEquals("failed", done.getJsonObject("filter").getJsonObject("match").getJsonObject("data")
                .getJsonObject("object").getString("status"), "the job shows its filter: " + done);
        assertEquals(1, webhooks.awaitRecorded("it", failed, completed(), PROCESSING).getInt("effects"),
                "processed once, by the replay");
        assertEquals("dead", webhooks.recorded("it", paid).getString("status"), "the other one is left as it was");
    }

    @Test
    void eventsAreFoundByARetainedHeadersValue() {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String mine = "header-" + run;
        // Standard Webhooks' retained headers: its own three, Content-Type and User-Agent.
        HttpResponse<String> sent = webhooks.send(webhooks.standard("it", mine, "{\"type\":\"search.test\"}")
                .header("User-Agent", "tenant-" + run));
        assertEquals(202, sent.statusCode(), sent.body());
        webhooks.awaitRecorded("it", mine, completed(), PROCESSING);

        assertEquals(List.of(mine), ids(events("source=it&header=" + encode("user-AGENT:tenant-" + run))),
                "the name in any case, the value exactly");
        assertEquals(List.of(), ids(events("source=it&header=" + encode("user-agent:tenant-" + run + "x"))));
    }

    @Test
    void anEventReceivedBeforeItsSourceHadKeysIsFoundOnceTheOperatorBackFillsThem() {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String old = "backfill-" + run;
        send(old, "{\"type\":\"search.test\",\"customer\":\"cus_old_" + run + "\"}");
        webhooks.awaitRecorded("it", old, completed(), PROCESSING);
        HttpResponse<String> forgotten = webhooks.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(
                webhooks.base() + "it/events/it/" + old + "/forget-keys"))
                .POST(java.net.http.HttpRequest.BodyPublishers.noBody()));
        assertEquals(204, forgotten.statusCode(), forgotten.body());
        String key = "key=" + encode("customer:cus_old_" + run);
        assertEquals(List.of(), ids(events(key)), "not searchable by a key it was stored without");

        JsonObject started = post("api/search-keys/backfill", "{\"source\":\"it\"}");
        assertEquals("it", started.getString("source"));

        long deadline = System.nanoTime() + PROCESSING.toNanos();
        while (ids(events(key)).isEmpty() && System.nanoTime() < deadline) {
            Webhooks.sleep(Duration.ofMillis(200));
        }
        assertEquals(List.of(old), ids(events(key)), "back-filled");
        HttpResponse<String> progress = webhooks.send(webhooks.operator("api/search-keys/backfill").GET());
        assertTrue(progress.body().contains("\"source\":\"it\""), progress.body());
        HttpResponse<String> noKeys = webhooks.send(webhooks.operator("api/search-keys/backfill")
                .header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"source\":\"gh\"}")));
        assertEquals(400, noKeys.statusCode(), noKeys.body());
    }

    @Test
    void aFragmentThatIsNotAJsonObjectIsAProblem() {
        HttpResponse<String> answer = webhooks.send(webhooks.operator("api/events?match=" + encode("status:failed"))
                .GET());

        assertEquals(400, answer.statusCode(), answer.body());
        assertTrue(answer.body().contains("match must be a JSON object"), answer.body());
    }

    @Test
    void aKeyNoSourceHasIsAProblemNamingTheKeysThereAre() {
        HttpResponse<String> answer = webhooks.send(webhooks.operator("api/events?key=" + encode("email:a@b.c")).GET());

        assertEquals(400, answer.statusCode(), answer.body());
        assertTrue(answer.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"));
        assertTrue(answer.body().contains("customer, id"), answer.body());
    }

    /** The test handler stops failing for this event: its cause is fixed. */
    private void fix(String id) {
        HttpResponse<String> fixed = webhooks.send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create(webhooks.base() + "it/events/it/" + id + "/fix"))
                .POST(java.net.http.HttpRequest.BodyPublishers.noBody()));
        assertEquals(204, fixed.statusCode(), fixed.body());
    }

    private JsonObject post(String path, String body) {
        HttpResponse<String> answer = webhooks.send(webhooks.operator(path).header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body)));
        assertTrue(answer.statusCode() == 200 || answer.statusCode() == 202, answer.statusCode() + " " + answer.body());
        return Webhooks.json(answer.body());
    }

    private void send(String id, String body) {
        HttpResponse<String> response = webhooks.send(webhooks.standard("it", id, body));
        assertEquals(202, response.statusCode(), response.body());
    }

    private JsonObject events(String query) {
        HttpResponse<String> answer = webhooks.send(webhooks.operator("api/events?" + query).GET());
        assertEquals(200, answer.statusCode(), answer.body());
        return Webhooks.json(answer.body());
    }

    private static List<String> ids(JsonObject page) {
        return page.getJsonArray("events").getValuesAs(JsonObject.class).stream()
                .map(event -> event.getString("eventId")).toList();
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    private static String json(String text) {
        return jakarta.json.Json.createValue(text).toString();
    }
}
