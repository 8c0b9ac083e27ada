package dev.hookstile.processing.control;

import dev.hookstile.api.WebhookEvent;
import dev.hookstile.events.boundary.EventRecorder;
import dev.hookstile.search.boundary.SearchKeys;

import java.util.List;

/** An event's search keys as the rows its claim writes: none for a source without keys (its body is not read). */
final class SearchKeyRows {

    private SearchKeyRows() {
    }

    static void add(SearchKeys keys, WebhookEvent event, List<EventRecorder.KeyValue> rows) {
        if (keys.has(event.source())) {
            keys.of(event.source(), event.payload())
                    .forEach((pointer, value) -> rows.add(new EventRecorder.KeyValue(event, pointer, value)));
        }
    }
}
