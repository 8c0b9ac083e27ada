package dev.hookstile.web.control;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RequestPathsTest {

    @Test
    void dotSegmentsInEverySpellingAndSemicolonsAreAmbiguous() {
        List<String> ambiguous = List.of("/webhooks/..%2Fapi/events", "/webhooks/..%2fapi/events",
                "/x/%2e%2e/api/events", "/x/%2E%2E/api/events", "/x/.%2E/api", "/x/%2e./api", "/x/../api/events",
                "/./api", "/api/.", "/api/..", "..", "/api/%2e/sources", "/webhooks/..%5Capi/events",
                "/webhooks/..\\api", "/webhooks/%252e%252e/api/events", "/webhooks/%25252e%25252e/api",
                "/api;x/events", "/api/events;jsessionid=1", "/api%3Bx/events", "/api%253Bx/events",
                "/a/%2525252e");
        assertEquals(List.of(), ambiguous.stream().filter(p -> !RequestPaths.ambiguous(p)).toList());
    }

    @Test
    void ordinaryPathsAreNot() {
        List<String> plain = List.of("/webhooks/gh", "/api/events", "/api/events/gh/evt.123",
                "/api/events/gh/a..b", "/api/events/gh/...", "/api/events/gh/.hidden", "/openapi.yaml",
                "/api/events/gh/id%20with%20space", "/api/events/gh/%C3%A9", "/", "", "/hookstile/api/sources",
                "/api/events/gh/100%");
        assertEquals(List.of(), plain.stream().filter(RequestPaths::ambiguous).toList());
        assertEquals(false, RequestPaths.ambiguous(null));
    }
}
