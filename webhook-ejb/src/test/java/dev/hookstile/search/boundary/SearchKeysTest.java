package dev.hookstile.search.boundary;

import dev.hookstile.MapConfig;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SearchKeysTest {

    private final SearchKeys keys = new SearchKeys(new MapConfig(Map.of("hookstile.sources", "pay,shop,gh",
            "hookstile.sources.pay.search-keys", "/data/object/customer, /data/object/id",
            "hookstile.sources.shop.search-keys", "/customer/id,/order~1no")));

    @Test
    void theValuesAtASourcesKeysAreTakenOutOfItsBody() {
        byte[] body = """
                {"data":{"object":{"id":"in_1","customer":"cus_9","amount":100}},"customer":"not this one"}"""
                .getBytes(StandardCharsets.UTF_8);

        assertEquals(Map.of("/data/object/customer", "cus_9", "/data/object/id", "in_1"), keys.of("pay", body));
        assertEquals(Map.of("/customer/id", "42"), keys.of("shop", "{\"customer\":{\"id\":42}}".getBytes()),
                "a number, as text");
        assertEquals(Map.of(), keys.of("pay", "{\"data\":{\"object\":{\"customer\":{\"id\":1}}}}".getBytes()),
                "an object is no value");
        assertEquals(Map.of(), keys.of("pay", "customer=cus_9".getBytes()), "not JSON: nothing, and no failure");
        assertFalse(keys.has("gh"));
        assertEquals(Map.of(), keys.of("gh", body));
    }

    @Test
    void aValueIsKeptAsASearchMatchesIt() {
        String nul = "{\"data\":{\"object\":{\"customer\":\"cus\\u00009\",\"id\":\"" + "x".repeat(300) + "\"}}}";

        Map<String, String> found = keys.of("pay", nul.getBytes(StandardCharsets.UTF_8));

        assertEquals("cus\uFFFD9", found.get("/data/object/customer"), "PostgreSQL's text holds no NUL");
        assertEquals(255, found.get("/data/object/id").length());
        assertEquals(SearchKeys.searchable("x".repeat(300)), found.get("/data/object/id"));
    }

    @Test
    void aKeyIsNamedByItsPointerOrItsLastSegment() {
        assertEquals(Set.of("/data/object/customer"), keys.pointersNamed("customer"));
        assertEquals(Set.of("/data/object/id", "/customer/id"), keys.pointersNamed("id"), "across sources");
        assertEquals(Set.of("/customer/id"), keys.pointersNamed("/customer/id"));
        assertEquals(Set.of("/order~1no"), keys.pointersNamed("order/no"), "unescaped");
        var unknown = assertThrows(IllegalArgumentException.class, () -> keys.pointersNamed("email"));
        assertTrue(unknown.getMessage().contains("customer, id, order/no"), unknown.getMessage());
    }

    @Test
    void badKeysAreProblemsNamingTheSetting() {
        List<String> problems = new SearchKeys().problems(new MapConfig(Map.of("hookstile.sources", "pay,gh",
                "hookstile.sources.pay.search-keys", "data.object.customer,/a/id,/b/id,/c:d",
                "hookstile.sources.gh.search-keys", "/a,/b,/c,/d,/e,/f")));

        assertEquals(List.of(
                "HOOKSTILE_SOURCES_PAY_SEARCH_KEYS (hookstile.sources.pay.search-keys): 'data.object.customer' must be"
                        + " a JSON pointer into the body, starting with '/' (e.g. /data/object/customer)",
                "HOOKSTILE_SOURCES_PAY_SEARCH_KEYS (hookstile.sources.pay.search-keys): '/b/id' names 'id' twice"
                        + " (/a/id): a key's last segment names it in a search, and must be unique within the source",
                "HOOKSTILE_SOURCES_PAY_SEARCH_KEYS (hookstile.sources.pay.search-keys): '/c:d' must not contain ':',"
                        + " which separates a key from its value in a search (customer:cus_9)",
                "HOOKSTILE_SOURCES_GH_SEARCH_KEYS (hookstile.sources.gh.search-keys): at most 5 keys per source, not 6"
                        + " (each is a row written with every event)"), problems);
    }
}
