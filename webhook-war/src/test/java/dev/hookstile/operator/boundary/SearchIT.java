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
        send(dead, "{\"type\":\"search.test\",\"customer\":" + json(customer) + ",\"order\":{\"id\":7" + run.hashCode() + "}}");
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
        assertEquals(List.of(dead), ids(events("key=" + encode("/order/id:7" + run.hashCode()))), "by its pointer");
        assertEquals(List.of(), ids(events("key=" + encode("customer:cus_" + run))), "the whole value, not a part");
    }

    @Test
    void aKeyNoSourceHasIsAProblemNamingTheKeysThereAre() {
        HttpResponse<String> answer = webhooks.send(webhooks.operator("api/events?key=" + encode("email:a@b.c")).GET());

        assertEquals(400, answer.statusCode(), answer.body());
        assertTrue(answer.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"));
        assertTrue(answer.body().contains("customer, id"), answer.body());
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
