package dev.hookstile.settings;

import org.eclipse.microprofile.config.Config;

import java.util.List;

/**
 * One component's settings, checked before anything starts: by the deployment, before the first bean is created, and
 * by {@code ./hookstile check} without a server. Implementations are listed in
 * {@code META-INF/services/dev.hookstile.settings.SettingsCheck} and created by {@link java.util.ServiceLoader}, so a
 * check reads only the configuration it is given and has no side effect: it creates no file, opens no connection and
 * logs nothing.
 */
public interface SettingsCheck {

    /**
     * Every problem found, each one line that starts with the setting, as environment variable and property
     * ({@code HOOKSTILE_DB_URL (hookstile.db.url): ...}), and says what would be valid; never a secret's value. Empty when the
     * settings are fine.
     */
    List<String> problems(Config config);

    /** How every problem names its setting: the environment variable and the property, as either may be set. */
    static String setting(String property) {
        return variable(property) + " (" + property + ")";
    }

    /**
     * The configured sources' names as {@code Sources} reads them ({@code hookstile.sources}: trimmed, lower-cased,
     * blanks left out), for a component that checks a setting of each source
     * ({@code hookstile.sources.<name>.<setting>}).
     */
    static List<String> sourceNames(Config config) {
        return config.getOptionalValue("hookstile.sources", String[].class).stream()
                .flatMap(java.util.Arrays::stream)
                .map(name -> name.trim().toLowerCase(java.util.Locale.ROOT))
                .filter(name -> !name.isEmpty())
                .toList();
    }

    /** The property of a source's setting: {@code hookstile.sources.<name>.<setting>}. */
    static String sourceSetting(String source, String setting) {
        return "hookstile.sources." + source + "." + setting;
    }

    /** The environment variable MicroProfile Config reads for a property: {@code HOOKSTILE_DB_URL}. */
    static String variable(String property) {
        return property.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(java.util.Locale.ROOT);
    }
}
