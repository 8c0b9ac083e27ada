package dev.hookstile.source.control;

import dev.hookstile.source.JsonFields;
import dev.hookstile.source.Provider;
import dev.hookstile.source.RejectedDelivery;
import dev.hookstile.source.Rejection;
import dev.hookstile.source.VerifiedDelivery.EventIdentity;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonReaderFactory;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A {@link Meta} body read into its events, strictly, as hostile input: entries with {@code changes} (WhatsApp,
 * Instagram and Page fields) or {@code messaging} items (Messenger, Instagram messaging), each message and status an
 * event of its own.
 *
 * <p>Event ids and types:
 * <ul>
 * <li>{@code changes[].value.messages[]}: the message id ({@code wamid.…}), type {@code <field>.message}.</li>
 * <li>{@code changes[].value.statuses[]}: {@code <message id>:<status>}, type {@code <field>.status}. This is a
 *     deliberate choice: a message's sent, delivered and read statuses all carry the message's id, so keyed on the
 *     id alone the delivered and read statuses would be dropped as duplicates of the sent one. The same status
 *     delivered twice is a duplicate.</li>
 * <li>{@code messaging[]} (and {@code standby[]}) items with {@code message.mid}: the mid, type
 *     {@code messaging.message} ({@code standby.message}).</li>
 * <li>other messaging items (delivery, read, postback, reaction…): type {@code messaging.<kind>}, the kind being the
 *     item's first key besides sender, recipient and timestamp; id {@code <entry.id>:<type>:<hash>}.</li>
 * <li>a change with no message and no status (account, template, Instagram comment updates): type {@code <field>},
 *     id {@code <entry.id>:<field>:<hash>}.</li>
 * </ul>
 * {@code <hash>} is the hex SHA-256 of the item (the change, or the messaging item) as parsed and written back as
 * JSON. Those items carry no id of their own and not always a timestamp (a Messenger delivery has none), but Meta
 * retries the same payload: the content hash stays the same when the item is reformatted or re-batched with other
 * entries, which the body's hash plus an index would not, and two different items never share it. Identical items
 * count as one, as does an id repeated within one body.
 *
 */
final class MetaBatch {

    private static final List<String> MESSAGING_LISTS = List.of("messaging", "standby");
    private static final Set<String> ITEM_ENVELOPE = Set.of("sender", "recipient", "timestamp");

    // Creating a factory looks the JSON-P provider up through the ServiceLoader: do it once, not per request.
    private static final JsonReaderFactory READERS = Json.createReaderFactory(Map.of());

    private MetaBatch() {
    }

    /**
     * The events of a signed body, each id once, in the body's order.
     *
     * @param oldestAccepted an entry whose signed time is before this (epoch milliseconds) is skipped, a replay
     * @param tolerance      the source's, for the refusal of a body whose every entry is that old
     */
    static List<EventIdentity> events(byte[] signedBody, long oldestAccepted, Duration tolerance)
            throws RejectedDelivery {
        JsonObject body = parse(signedBody);
        JsonArray entries = optionalArray(body, "entry", "");
        if (entries == null || entries.isEmpty()) {
            throw new RejectedDelivery(Rejection.MISSING_EVENT_ID, "the JSON body has no \"entry\"");
        }
        var events = new LinkedHashMap<String, EventIdentity>();
        int stale = 0;
        for (int e = 0; e < entries.size(); e++) {
            String at = "entry[" + e + "]";
            JsonObject entry = object(entries.get(e), at);
            long time = entryTimeMillis(entry);
            if (time != NO_TIME && time < oldestAccepted) {
                // Signed, so only a replay of a captured body (or Meta retrying past its own window) gets here.
                stale++;
                continue;
            }
            String entryId = optionalString(entry, "id", at);
            JsonArray changes = optionalArray(entry, "changes", at);
            for (int c = 0; changes != null && c < changes.size(); c++) {
                String changeAt = at + ".changes[" + c + "]";
                change(object(changes.get(c), changeAt), changeAt, entryId, events);
            }
            for (String list : MESSAGING_LISTS) {
                JsonArray items = optionalArray(entry, list, at);
                for (int i = 0; items != null && i < items.size(); i++) {
                    String itemAt = at + "." + list + "[" + i + "]";
                    messagingItem(object(items.get(i), itemAt), list, itemAt, entryId, events);
                }
            }
        }
        if (stale == entries.size()) {
            throw new RejectedDelivery(Rejection.TIMESTAMP_OUT_OF_TOLERANCE, "every entry's signed time is more than "
                    + tolerance.toSeconds() + " s old");
        }
        if (events.isEmpty()) {
            throw new RejectedDelivery(Rejection.MISSING_EVENT_ID,
                    "no entry in the JSON body holds a change or a messaging item");
        }
        return List.copyOf(events.values());
    }

    private static final long NO_TIME = Long.MIN_VALUE;
    /** Below this an entry's time is in seconds (Page webhooks), above it in milliseconds (Messenger, Instagram). */
    private static final long MILLIS_FROM = 100_000_000_000L;

    /**
     * An entry's {@code time} in epoch milliseconds, or {@link #NO_TIME} when it has none (WhatsApp's entries) or it
     * is not a positive integer: Meta signed it, so it is not refused for that, only left unchecked.
     */
    private static long entryTimeMillis(JsonObject entry) {
        if (!(entry.get("time") instanceof JsonNumber number) || !number.isIntegral()) {
            return NO_TIME;
        }
        long time;
        try {
            time = number.longValueExact();
        } catch (ArithmeticException e) {
            return NO_TIME;
        }
        if (time <= 0) {
            return NO_TIME;
        }
        return time < MILLIS_FROM ? Math.multiplyExact(time, 1000L) : time;
    }

    private static void change(JsonObject change, String at, String entryId, Map<String, EventIdentity> events)
            throws RejectedDelivery {
        String field = optionalString(change, "field", at);
        if (field == null || field.isEmpty()) {
            throw invalid(at + " has no \"field\"");
        }
        boolean itemized = false;
        if (change.get("value") instanceof JsonObject value) {
            String valueAt = at + ".value";
            JsonArray messages = optionalArray(value, "messages", valueAt);
            for (int m = 0; messages != null && m < messages.size(); m++) {
                String messageAt = valueAt + ".messages[" + m + "]";
                add(events, requiredId(object(messages.get(m), messageAt), "id", messageAt), field + ".message");
                itemized = true;
            }
            JsonArray statuses = optionalArray(value, "statuses", valueAt);
            for (int s = 0; statuses != null && s < statuses.size(); s++) {
                String statusAt = valueAt + ".statuses[" + s + "]";
                JsonObject status = object(statuses.get(s), statusAt);
                add(events, requiredId(status, "id", statusAt) + ":" + requiredId(status, "status", statusAt),
                        field + ".status");
                itemized = true;
            }
        }
        if (!itemized) {
            add(events, contentId(entryId, at, field, change), field);
        }
    }

    private static void messagingItem(JsonObject item, String list, String at, String entryId,
                                      Map<String, EventIdentity> events) throws RejectedDelivery {
        JsonValue message = item.get("message");
        if (message != null) {
            String mid = optionalString(object(message, at + ".message"), "mid", at + ".message");
            if (mid != null && !mid.isEmpty()) {
                add(events, mid, list + ".message");
                return;
            }
        }
        String kind = message != null ? "message" : item.keySet().stream()
                .filter(key -> !ITEM_ENVELOPE.contains(key)).findFirst().orElse("unknown");
        String type = list + "." + kind;
        add(events, contentId(entryId, at, type, item), type);
    }

    private static void add(Map<String, EventIdentity> events, String id, String type) {
        events.putIfAbsent(id, new EventIdentity(id, type));
    }

    private static String contentId(String entryId, String at, String type, JsonObject item) throws RejectedDelivery {
        if (entryId == null || entryId.isEmpty()) {
            throw new RejectedDelivery(Rejection.MISSING_EVENT_ID, at + " has no id of its own and its entry has no "
                    + "\"id\" to derive one from");
        }
        return entryId + ":" + type + ":" + Hmac.hex(Provider.sha256(item.toString().getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * The tree reader recurses once per nesting level and fails in unspecified ways on bad input, so the streaming
     * pass of {@link JsonFields} first refuses deep nesting, truncation and malformed UTF-8 with a precise reason.
     */
    private static JsonObject parse(byte[] body) throws RejectedDelivery {
        JsonFields.values(body, Set.of());
        try (JsonReader reader = READERS.createReader(JsonFields.strictUtf8(body))) {
            return reader.readObject();
        } catch (JsonException | IllegalStateException e) {
            throw invalid("the body is not valid JSON");
        }
    }

    private static JsonObject object(JsonValue value, String at) throws RejectedDelivery {
        if (value instanceof JsonObject object) {
            return object;
        }
        throw invalid(at + " is not a JSON object");
    }

    private static JsonArray optionalArray(JsonObject parent, String key, String at) throws RejectedDelivery {
        JsonValue value = parent.get(key);
        if (value == null) {
            return null;
        }
        if (value instanceof JsonArray array) {
            return array;
        }
        throw invalid(path(at, key) + " is not an array");
    }

    private static String optionalString(JsonObject parent, String key, String at) throws RejectedDelivery {
        JsonValue value = parent.get(key);
        if (value == null) {
            return null;
        }
        if (value instanceof JsonString string) {
            return string.getString();
        }
        throw invalid(path(at, key) + " is not a string");
    }

    private static String requiredId(JsonObject parent, String key, String at) throws RejectedDelivery {
        String value = optionalString(parent, key, at);
        if (value == null || value.isEmpty()) {
            throw new RejectedDelivery(Rejection.MISSING_EVENT_ID, at + " has no \"" + key + "\"");
        }
        return value;
    }

    private static String path(String at, String key) {
        return at.isEmpty() ? key : at + "." + key;
    }

    private static RejectedDelivery invalid(String detail) {
        return new RejectedDelivery(Rejection.INVALID_PAYLOAD, detail);
    }
}
