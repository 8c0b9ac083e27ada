package dev.hookstile.replay.boundary;

import dev.hookstile.events.boundary.ContentSearch;
import dev.hookstile.events.boundary.EventQuery;
import dev.hookstile.events.entity.EventStatus;
import dev.hookstile.source.JsonMatch;
import jakarta.json.Json;

import java.time.Instant;

/**
 * Which recorded events a bulk replay queues again: all of one status ({@code dead} unless said otherwise),
 * optionally of one source, of a type (exactly, or as a prefix with {@code typePrefix}), with one last error exactly
 * (a dead group's), received in {@code [since, until)}, with a search key's value ({@code customer:cus_9}, read from
 * the keys' index), and, of those, with a body containing a JSON fragment and a retained header's value (the Events
 * page's search, {@link ContentSearch}). The type is exact unless asked otherwise: a replay queues work again, and
 * {@code invoice.paid} must not also select {@code invoice.paid_out} by surprise.
 *
 * @param key       the search key as the operator wrote it ({@code customer:cus_9}), or {@code null}
 * @param searchKey that key resolved to its pointers, with {@code key}
 * @param match     a fragment the body must contain, or {@code null}
 * @param header    a header the event must have been delivered with, or {@code null}
 */
public record ReplayFilter(String source, EventStatus status, String type, Instant since, Instant until,
                           boolean typePrefix, String error, String key, EventQuery.Key searchKey, JsonMatch match,
                           ContentSearch.Header header) {

    public ReplayFilter {
        status = status == null ? EventStatus.DEAD : status;
        if ((key == null) != (searchKey == null)) {
            throw new IllegalArgumentException("a search key comes with its pointers");
        }
    }

    public ReplayFilter(String source, EventStatus status, String type, Instant since, Instant until,
                        boolean typePrefix, String error) {
        this(source, status, type, since, until, typePrefix, error, null, null, null, null);
    }

    public ReplayFilter(String source, EventStatus status, String type, Instant since, Instant until) {
        this(source, status, type, since, until, false, null);
    }

    /** The same filter up to {@code until}. */
    public ReplayFilter until(Instant until) {
        return new ReplayFilter(source, status, type, since, until, typePrefix, error, key, searchKey, match, header);
    }

    /**
     * Whether it asks what the body or the headers hold: no index answers that, so the events the other filters select
     * are read and matched page by page.
     */
    public boolean content() {
        return match != null || header != null;
    }

    /** The events its filters but the body's and headers' select, as a query of {@code limit} a page. */
    public EventQuery query(int limit) {
        return new EventQuery(source, status, type, since, until, null, limit, !typePrefix, error, null, searchKey);
    }

    /** A canonical form: the same filter always gives the same text, for the job's idempotency key. */
    public String toJson() {
        var json = Json.createObjectBuilder().add("status", status.column());
        if (source != null) {
            json.add("source", source);
        }
        if (type != null) {
            json.add("type", type);
        }
        if (since != null) {
            json.add("since", since.toString());
        }
        if (until != null) {
            json.add("until", until.toString());
        }
        // Only when set: a filter without them keeps the text, and so the job key, it had before they existed.
        if (typePrefix) {
            json.add("typePrefix", true);
        }
        if (error != null) {
            json.add("error", error);
        }
        if (key != null) {
            json.add("key", key);
        }
        if (match != null) {
            json.add("match", match.fragment());
        }
        if (header != null) {
            json.add("header", header.name() + ":" + header.value());
        }
        return json.build().toString();
    }
}
