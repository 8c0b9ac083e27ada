package dev.hookstile.start.control;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigValue;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.eclipse.microprofile.config.spi.Converter;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * The configuration as the server reads it, for {@code ./hookstile check}, which runs without a server: MicroProfile
 * Config's three default sources in their order (system properties, then the environment with its name mapping, then
 * every {@code META-INF/microprofile-config.properties} of the application) and its implicit converters. Not the
 * server's extra sources (a Payara Server domain's properties, password aliases) nor property expressions.
 */
public final class StandaloneConfig implements Config {

    private static final Set<String> TRUE = Set.of("true", "1", "yes", "y", "on");

    private final Map<String, String> environment;
    private final List<Properties> files = new ArrayList<>();

    public StandaloneConfig(ClassLoader application, Map<String, String> environment) {
        this.environment = environment;
        try {
            var found = new ArrayList<Map.Entry<Integer, Properties>>();
            for (URL url : Collections.list(application.getResources("META-INF/microprofile-config.properties"))) {
                var properties = new Properties();
                try (InputStream in = url.openStream()) {
                    properties.load(in);
                }
                found.add(Map.entry(Integer.parseInt(properties.getProperty("config_ordinal", "100").trim()),
                        properties));
            }
            found.sort((a, b) -> Integer.compare(b.getKey(), a.getKey()));
            found.forEach(entry -> files.add(entry.getValue()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The raw value, or {@code null}: system property, environment variable, then the files. */
    private String raw(String name) {
        String value = System.getProperty(name);
        if (value != null) {
            return value;
        }
        String sanitized = name.replaceAll("[^A-Za-z0-9_]", "_");
        for (String variable : new String[] {name, sanitized, sanitized.toUpperCase(Locale.ROOT)}) {
            value = environment.get(variable);
            if (value != null) {
                return value;
            }
        }
        for (Properties file : files) {
            value = file.getProperty(name);
            if (value != null) {
                return value;
            }
        }
        return null;
    }

    @Override
    public <T> Optional<T> getOptionalValue(String propertyName, Class<T> propertyType) {
        String value = raw(propertyName);
        if (value == null || value.isEmpty()) {
            return Optional.empty();
        }
        return Optional.ofNullable(convert(value, propertyType));
    }

    @Override
    public <T> T getValue(String propertyName, Class<T> propertyType) {
        return getOptionalValue(propertyName, propertyType)
                .orElseThrow(() -> new NoSuchElementException(propertyName + " is not set"));
    }

    @Override
    public ConfigValue getConfigValue(String propertyName) {
        String value = raw(propertyName);
        return new ConfigValue() {
            public String getName() {
                return propertyName;
            }

            public String getValue() {
                return value;
            }

            public String getRawValue() {
                return value;
            }

            public String getSourceName() {
                return value == null ? null : "standalone";
            }

            public int getSourceOrdinal() {
                return 0;
            }
        };
    }

    @Override
    public <T> Optional<List<T>> getOptionalValues(String propertyName, Class<T> propertyType) {
        String value = raw(propertyName);
        if (value == null || value.isEmpty()) {
            return Optional.empty();
        }
        var values = new ArrayList<T>();
        for (String item : split(value)) {
            values.add(convert(item, propertyType));
        }
        return Optional.of(values);
    }

    @Override
    public <T> List<T> getValues(String propertyName, Class<T> propertyType) {
        return getOptionalValues(propertyName, propertyType)
                .orElseThrow(() -> new NoSuchElementException(propertyName + " is not set"));
    }

    @Override
    public Iterable<String> getPropertyNames() {
        var names = new TreeSet<String>(System.getProperties().stringPropertyNames());
        names.addAll(environment.keySet());
        files.forEach(file -> names.addAll(file.stringPropertyNames()));
        return names;
    }

    @Override
    public Iterable<ConfigSource> getConfigSources() {
        return List.of();
    }

    @Override
    public <T> Optional<Converter<T>> getConverter(Class<T> forType) {
        return Optional.of(value -> convert(value, forType));
    }

    @Override
    public <T> T unwrap(Class<T> type) {
        throw new IllegalArgumentException("nothing to unwrap: " + type);
    }

    /** MicroProfile Config's list syntax: commas separate, {@code \,} is a comma inside an item. */
    static List<String> split(String value) {
        var items = new ArrayList<String>();
        var item = new StringBuilder();
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\\' && i + 1 < value.length() && value.charAt(i + 1) == ',') {
                item.append(',');
                i++;
            } else if (c == ',') {
                if (!item.isEmpty()) {
                    items.add(item.toString());
                }
                item.setLength(0);
            } else {
                item.append(c);
            }
        }
        if (!item.isEmpty()) {
            items.add(item.toString());
        }
        return items;
    }

    /** The implicit converters: the built-in types, then {@code of}, {@code valueOf}, {@code parse} or a constructor. */
    @SuppressWarnings("unchecked")
    static <T> T convert(String value, Class<T> type) {
        if (type == String.class || type == Object.class) {
            return (T) value;
        }
        if (type.isArray()) {
            List<String> items = split(value);
            Object array = Array.newInstance(type.getComponentType(), items.size());
            for (int i = 0; i < items.size(); i++) {
                Array.set(array, i, convert(items.get(i), type.getComponentType()));
            }
            return (T) array;
        }
        if (type == Boolean.class || type == boolean.class) {
            return (T) Boolean.valueOf(TRUE.contains(value.trim().toLowerCase(Locale.ROOT)));
        }
        if (type == Character.class || type == char.class) {
            if (value.length() != 1) {
                throw new IllegalArgumentException("not one character");
            }
            return (T) Character.valueOf(value.charAt(0));
        }
        Class<?> boxed = Map.<Class<?>, Class<?>>of(int.class, Integer.class, long.class, Long.class,
                double.class, Double.class, float.class, Float.class, short.class, Short.class, byte.class, Byte.class)
                .getOrDefault(type, type);
        try {
            for (String factory : new String[] {"of", "valueOf", "parse"}) {
                for (Class<?> parameter : new Class<?>[] {String.class, CharSequence.class}) {
                    try {
                        Method method = boxed.getMethod(factory, parameter);
                        if (Modifier.isStatic(method.getModifiers()) && boxed.isAssignableFrom(method.getReturnType())) {
                            return (T) method.invoke(null, value);
                        }
                    } catch (NoSuchMethodException next) {
                        // Try the next form.
                    }
                }
            }
            Constructor<?> constructor = boxed.getConstructor(String.class);
            return (T) constructor.newInstance(value);
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw new IllegalArgumentException(e.getCause().getMessage(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException("no converter for " + type.getName(), e);
        }
    }
}
