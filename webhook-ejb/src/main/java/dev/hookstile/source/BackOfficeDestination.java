package dev.hookstile.source;

import java.util.List;

/**
 * A queue or topic on the broker where a source's processed events are published for a back office, inside the
 * processing transaction: {@code HOOKSTILE_SOURCES_<NAME>_DESTINATION_JMS=queue:NAME} or {@code topic:NAME}.
 *
 * @param types the event types published (all when empty; {@code invoice.*} matches a prefix), shared with the
 *              HTTP destination's {@code _DESTINATION_TYPES}
 */
public record BackOfficeDestination(boolean topic, String name, List<String> types) {

    public BackOfficeDestination {
        types = List.copyOf(types);
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a back-office destination needs a name");
        }
    }

    /**
     * Parses {@code queue:NAME} or {@code topic:NAME}.
     *
     * @throws IllegalArgumentException for anything else
     */
    public static BackOfficeDestination parse(String value, List<String> types) {
        String text = value.trim();
        int colon = text.indexOf(':');
        String kind = colon < 0 ? "" : text.substring(0, colon);
        String name = colon < 0 ? "" : text.substring(colon + 1).trim();
        if (!(kind.equals("queue") || kind.equals("topic")) || name.isEmpty()
                || !name.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '.' || c == '_' || c == '-')) {
            throw new IllegalArgumentException("must be queue:NAME or topic:NAME (NAME: letters, digits, '.', '_', '-')");
        }
        return new BackOfficeDestination(kind.equals("topic"), name, types);
    }

    /** Whether an event of this type is published. */
    public boolean publishes(String type) {
        return Destination.matches(types, type);
    }

    @Override
    public String toString() {
        return (topic ? "topic:" : "queue:") + name + (types.isEmpty() ? "" : " " + types);
    }
}
