package dev.hookstile.processing.control;

import dev.hookstile.api.WebhookEvent;
import dev.hookstile.api.WebhookHandler;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HandlersTest {

    private static WebhookEvent event(String type) {
        return new WebhookEvent("gh", "github", "id-" + type, type, Instant.now(), 1, Map.of(), new byte[0]);
    }

    @Test
    void aSenderInventingATypePerEventDoesNotGrowTheRouteCacheWithoutEnd() throws Exception {
        var calls = new AtomicInteger();
        WebhookHandler pushes = event -> calls.incrementAndGet();
        var handlers = new Handlers();
        handlers.registrations = List.of(new Handlers.Registration("pushes",
                new HandlerSelector(List.of(), List.of(), List.of("push.*")), pushes));

        int events = Handlers.MAX_ROUTES + 5_000;
        for (int i = 0; i < events; i++) {
            handlers.dispatch(event("push." + i));
        }

        assertEquals(Handlers.MAX_ROUTES, handlers.routes.size(), "the cache stops at its bound");
        assertEquals(events, calls.get(), "events beyond the bound are still routed");
        assertTrue(!handlers.handles(event("other." + events)), "and not routed where they do not belong");
    }
}
