package dev.hookstile.search.boundary;

import dev.hookstile.api.Text;
import dev.hookstile.settings.SettingsCheck;
import dev.hookstile.settings.SettingsReadAtStart;
import dev.hookstile.source.JsonFields;
import dev.hookstile.source.RejectedDelivery;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.Config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The search keys of each source: {@code HOOKSTILE_SOURCES_<NAME>_SEARCH_KEYS} ({@code hookstile.sources.<name>
 * .search-keys}), at most {@link #MAX_PER_SOURCE} JSON pointers into the body, e.g.
 * {@code /data/object/customer,/data/object/id}. A key is named by its pointer or by the pointer's last segment
 * ({@code customer}), which must then be unique within its source. The values found there (strings and numbers) are
 * taken out when an event is claimed, and an operator finds its events by {@code customer:cus_9}.
 *
 * <p>A bad pointer refuses the start, naming the setting: a key an operator counts on must not be silently unsearched.
 */
@ApplicationScoped
public class SearchKeys extends SettingsReadAtStart {

    /** A few keys per source: each is a row written with every event of the source. */
    public static final int MAX_PER_SOURCE = 5;
    static final int MAX_POINTER = Text.MAX_STORED;
    /** The longest value kept as it is (the column's size); a longer one is cut, and so is a search's. */
    static final int MAX_VALUE = Text.MAX_STORED;

    /** The pointers of each source that has any. */
    private Map<String, Set<String>> bySource = Map.of();

    public SearchKeys() {
    }

    /** For unit tests: the keys the given configuration holds. */
    public SearchKeys(Config config) {
        this.config = config;
        load();
    }

    @Override
    protected SearchKeys unread() {
        return new SearchKeys();
    }

    /** Whether the source has search keys: only then is its body read for them. */
    public boolean has(String source) {
        return bySource.containsKey(source);
    }

    /**
     * The values of the source's search keys in this body, by pointer: strings and numbers found, nothing for a
     * missing value, an object, an array or a body that is not JSON. A value is kept as a search matches it
     * ({@link #searchable}).
     */
    public Map<String, String> of(String source, byte[] body) {
        Set<String> pointers = bySource.get(source);
        if (pointers == null || body == null) {
            return Map.of();
        }
        try {
            // In pointer order: the rows of one claim are written, and locked, in one order.
            var found = new TreeMap<String, String>();
            JsonFields.values(body, pointers).forEach((pointer, value) -> found.put(pointer, searchable(value)));
            return found;
        } catch (RejectedDelivery notJson) {
            return Map.of();
        }
    }

    /**
     * The pointers a key names: itself, if it is a pointer some source has, or every configured pointer whose last
     * segment it is ({@code customer} names {@code /data/object/customer}).
     *
     * @throws IllegalArgumentException naming the keys there are, when no source has it
     */
    public Set<String> pointersNamed(String key) {
        var named = new TreeSet<String>();
        for (Set<String> pointers : bySource.values()) {
            for (String pointer : pointers) {
                if (pointer.equals(key) || lastSegment(pointer).equals(key)) {
                    named.add(pointer);
                }
            }
        }
        if (named.isEmpty()) {
            var known = new TreeSet<String>();
            bySource.values().forEach(pointers -> pointers.forEach(p -> known.add(lastSegment(p))));
            throw new IllegalArgumentException(known.isEmpty()
                    ? "no source has search keys: set HOOKSTILE_SOURCES_<NAME>_SEARCH_KEYS"
                    : "no source has a search key named '" + Text.shown(key, 64) + "' (there are: "
                    + String.join(", ", known) + ")");
        }
        return named;
    }

    /** Every source's search keys, by source, as configured. */
    public Map<String, Set<String>> all() {
        return bySource;
    }

    /**
     * A value as stored and matched: at most 255 characters, and no NUL, which PostgreSQL's text refuses (a body
     * holding {@code "\u0000"} must not fail its event's claim).
     */
    public static String searchable(String value) {
        String cut = value.length() <= MAX_VALUE ? value : value.substring(0, MAX_VALUE);
        return cut.indexOf('\0') < 0 ? cut : cut.replace('\0', '\uFFFD');
    }

    /** A pointer's last segment, unescaped (RFC 6901). */
    static String lastSegment(String pointer) {
        return pointer.substring(pointer.lastIndexOf('/') + 1).replace("~1", "/").replace("~0", "~");
    }

    @Override
    protected List<String> read() {
        var problems = new ArrayList<String>();
        var keys = new HashMap<String, Set<String>>();
        for (String source : SettingsCheck.sourceNames(config)) {
            String property = SettingsCheck.sourceSetting(source, "search-keys");
            String[] values = config.getOptionalValue(property, String[].class).orElse(new String[0]);
            var pointers = new LinkedHashSet<String>();
            var lastSegments = new HashMap<String, String>();
            for (String value : values) {
                String pointer = value.trim();
                if (pointer.isEmpty()) {
                    continue;
                }
                String problem = pointer.length() > MAX_POINTER ? "is longer than " + MAX_POINTER + " characters"
                        : !pointer.startsWith("/") || pointer.length() == 1
                        ? "must be a JSON pointer into the body, starting with '/' (e.g. /data/object/customer)"
                        : pointer.indexOf(':') >= 0 ? "must not contain ':', which separates a key from its value"
                        + " in a search (customer:cus_9)"
                        : lastSegments.containsKey(lastSegment(pointer)) ? "names '" + lastSegment(pointer)
                        + "' twice (" + lastSegments.get(lastSegment(pointer)) + "): a key's last segment names it"
                        + " in a search, and must be unique within the source"
                        : null;
                if (problem != null) {
                    problems.add(SettingsCheck.setting(property) + ": '" + Text.shown(pointer, 64) + "' " + problem);
                    continue;
                }
                lastSegments.put(lastSegment(pointer), pointer);
                pointers.add(pointer);
            }
            if (pointers.size() > MAX_PER_SOURCE) {
                problems.add(SettingsCheck.setting(property) + ": at most " + MAX_PER_SOURCE
                        + " keys per source, not " + pointers.size() + " (each is a row written with every event)");
            } else if (!pointers.isEmpty()) {
                keys.put(source, Set.copyOf(pointers));
            }
        }
        bySource = Map.copyOf(keys);
        return problems;
    }

}
