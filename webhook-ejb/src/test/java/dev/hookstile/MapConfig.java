package dev.hookstile;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigValue;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.eclipse.microprofile.config.spi.Converter;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;

/** Just enough of MicroProfile Config over a fixed map, for unit tests: String, String[], Integer and Long values. */
public final class MapConfig implements Config {

    private final Map<String, String> values;

    public MapConfig(Map<String, String> values) {
        this.values = Map.copyOf(values);
    }

    @Override
    public <T> T getValue(String propertyName, Class<T> propertyType) {
        return getOptionalValue(propertyName, propertyType)
                .orElseThrow(() -> new NoSuchElementException(propertyName));
    }

    @Override
    public ConfigValue getConfigValue(String propertyName) {
        throw new UnsupportedOperationException();
    }

    @Override
    public <T> Optional<T> getOptionalValue(String propertyName, Class<T> propertyType) {
        String raw = values.get(propertyName);
        if (raw == null || raw.isEmpty()) {
            return Optional.empty(); // as in MicroProfile Config, an empty value is a missing one
        }
        Object converted;
        if (propertyType == String.class) {
            converted = raw;
        } else if (propertyType == String[].class) {
            String[] items = splitOnUnescapedCommas(raw);
            if (items.length == 0) {
                return Optional.empty();
            }
            converted = items;
        } else if (propertyType == Long.class) {
            converted = Long.valueOf(raw.trim());
        } else if (propertyType == Integer.class) {
            converted = Integer.valueOf(raw.trim());
        } else {
            throw new IllegalArgumentException("no converter for " + propertyType);
        }
        return Optional.of(propertyType.cast(converted));
    }

    private static String[] splitOnUnescapedCommas(String raw) {
        List<String> items = new ArrayList<>();
        var current = new StringBuilder();
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '\\' && i + 1 < raw.length() && raw.charAt(i + 1) == ',') {
                current.append(',');
                i++;
            } else if (c == ',') {
                items.add(current.toString().trim());
                current.setLength(0);
            } else {
                current.append(c);
            }
        }
        items.add(current.toString().trim());
        return items.stream().filter(s -> !s.isEmpty()).toArray(String[]::new);
    }

    @Override
    public Iterable<String> getPropertyNames() {
        return values.keySet();
    }

    @Override
    public Iterable<ConfigSource> getConfigSources() {
        return List.of();
    }

    @Override
    public <T> Optional<Converter<T>> getConverter(Class<T> forType) {
        return Optional.empty();
    }

    @Override
    public <T> T unwrap(Class<T> type) {
        throw new IllegalArgumentException("cannot unwrap to " + type);
    }
}
