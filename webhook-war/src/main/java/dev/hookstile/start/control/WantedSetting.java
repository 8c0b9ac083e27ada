package dev.hookstile.start.control;

import dev.hookstile.settings.SettingsCheck;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A setting some class injects with {@code @ConfigProperty}: Hookstile's own and a handler's alike. Checked before the
 * first bean is created, so that a missing or malformed one is named in one line, instead of the container's
 * {@code WELD-000049: Unable to invoke ...} after half the application has started.
 *
 * @param name         the property
 * @param type         the injected type ({@code int}, {@code Optional<Long>}, ...)
 * @param defaultValue the annotation's default, or {@link ConfigProperty#UNCONFIGURED_VALUE}
 * @param where        the class and member that injects it, for the message
 */
public record WantedSetting(String name, Type type, String defaultValue, String where) {

    private static final Set<String> WRAPPERS = Set.of(Optional.class.getName(), Supplier.class.getName(),
            "jakarta.inject.Provider", "jakarta.enterprise.inject.Instance");
    private static final Map<Class<?>, Class<?>> BOXES = Map.of(int.class, Integer.class, long.class, Long.class,
            boolean.class, Boolean.class, double.class, Double.class, float.class, Float.class, short.class,
            Short.class, byte.class, Byte.class, char.class, Character.class);

    /** What is wrong with this setting's value in {@code config}: missing, or not of the injected type. */
    public Optional<String> problem(Config config) {
        boolean optional = isOptional(type);
        Class<?> target = target(type);
        if (target == null) {
            return Optional.empty();
        }
        try {
            if (config.getOptionalValue(name, target).isEmpty() && !optional
                    && ConfigProperty.UNCONFIGURED_VALUE.equals(defaultValue)) {
                return Optional.of(SettingsCheck.setting(name) + ": is required by " + where + ", and not set");
            }
            return Optional.empty();
        } catch (IllegalArgumentException | ArithmeticException e) {
            return Optional.of(SettingsCheck.setting(name) + ": " + quoted(config) + "is not " + kind(target)
                    + " (" + where + ")");
        }
    }

    /** The value, quoted only when it is a number's or a flag's: any other may be a secret. */
    private String quoted(Config config) {
        String raw = config.getOptionalValue(name, String.class).orElse("");
        boolean numeric = raw.length() <= 32 && raw.chars().allMatch(c -> c >= 0x20 && c < 0x7f);
        return numeric ? "'" + raw + "' " : "its value ";
    }

    private static String kind(Class<?> target) {
        if (target == Integer.class || target == Long.class || target == Short.class || target == Byte.class) {
            return "a whole number";
        }
        if (target == Double.class || target == Float.class) {
            return "a number";
        }
        return "a valid " + target.getSimpleName();
    }

    private static boolean isOptional(Type type) {
        if (type instanceof ParameterizedType p && p.getRawType() instanceof Class<?> raw) {
            return WRAPPERS.contains(raw.getName());
        }
        return type == OptionalInt.class || type == OptionalLong.class || type == OptionalDouble.class;
    }

    /** The class the value converts to; {@code null} for a type this check does not follow (a list, a map). */
    private static Class<?> target(Type type) {
        if (type == OptionalInt.class) {
            return Integer.class;
        }
        if (type == OptionalLong.class) {
            return Long.class;
        }
        if (type == OptionalDouble.class) {
            return Double.class;
        }
        if (type instanceof Class<?> c) {
            return BOXES.getOrDefault(c, c);
        }
        if (type instanceof ParameterizedType p && isOptional(p)) {
            return target(p.getActualTypeArguments()[0]);
        }
        return null;
    }
}
