package dev.hookstile.source.boundary;

import dev.hookstile.api.Text;
import dev.hookstile.settings.SettingsCheck;
import dev.hookstile.source.Provider;
import dev.hookstile.source.Source;
import dev.hookstile.source.SourceConfigurationException;
import dev.hookstile.source.control.SourceReader;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.Config;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Logger;
import java.util.regex.Pattern;

/**
 * The configured sources, read once at start-up from MicroProfile Config:
 * {@code hookstile.sources} (names), {@code hookstile.sources.<name>.provider}, {@code .secrets} (comma-separated,
 * {@code \,} for a comma inside one), {@code .secrets-file} (one per line), {@code .tolerance-seconds},
 * {@code .max-attempts}, {@code .retries},
 * {@code .body-dedup-window-seconds}, {@code .retention-days}. As environment variables: {@code HOOKSTILE_SOURCES},
 * {@code HOOKSTILE_SOURCES_<NAME>_PROVIDER}, {@code _SECRETS}, {@code _SECRETS_FILE}, {@code _TOLERANCE_SECONDS},
 * {@code _MAX_ATTEMPTS}, {@code _RETRIES}, {@code _BODY_DEDUP_WINDOW_SECONDS}, {@code _RETENTION_DAYS},
 * {@code _ORDER_KEY}.
 *
 * <p>A source that is misconfigured fails the deployment: accepting webhooks we cannot verify would be worse than
 * not starting.
 *
 * <p>Each source is read by a {@link SourceReader}, after its provider from the registry ({@link Providers}); this
 * class keeps the sources and the settings for every source.
 */
@ApplicationScoped
public class Sources implements SettingsCheck {

    static final String PREFIX = "hookstile.sources";
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");
    private static final Logger LOG = Logger.getLogger(Sources.class.getName());

    @Inject
    Config config;

    private volatile Map<String, Source> byName = Map.of();
    /** In the order HOOKSTILE_SOURCES names them: operators find their sources where they put them, every start. */
    private volatile List<Source> inConfiguredOrder = List.of();
    private int defaultMaxAttempts = Source.DEFAULT_MAX_ATTEMPTS;
    private int defaultRetries = Source.DEFAULT_RETRIES;
    private long defaultRetentionDays = Source.DEFAULT_RETENTION.toDays();

    /** Whether what {@link #load} finds is logged: not when the sources are only checked ({@link #problems}). */
    private boolean reporting = true;

    public Sources() {
    }

    /** For unit tests and tools: sources read from the given configuration. */
    public Sources(Config config) {
        this.config = config;
        load();
    }

    /** Every problem of the sources' settings, without logging what a start would log. */
    @Override
    public List<String> problems(Config settings) {
        var check = new Sources();
        check.config = settings;
        check.reporting = false;
        try {
            check.load();
            return List.of();
        } catch (SourceConfigurationException e) {
            return e.problems();
        }
    }

    private void warn(java.util.function.Supplier<String> message) {
        if (reporting) {
            LOG.warning(message);
        }
    }

    private void info(java.util.function.Supplier<String> message) {
        if (reporting) {
            LOG.info(message);
        }
    }

    @PostConstruct
    void load() {
        var problems = new ArrayList<String>();
        var reader = new SourceReader(config, this::warn);
        defaultMaxAttempts = checked(problems, Source.DEFAULT_MAX_ATTEMPTS, () -> reader.limit(
                "hookstile.processing.max-attempts", Source.DEFAULT_MAX_ATTEMPTS, Source::requireMaxAttempts));
        defaultRetries = checked(problems, Source.DEFAULT_RETRIES, () -> reader.limit(
                "hookstile.processing.retries", Source.DEFAULT_RETRIES, Source::requireRetries));
        defaultRetentionDays = checked(problems, Source.DEFAULT_RETENTION.toDays(), () -> reader.retentionDays(
                "hookstile.retention.days", Source.DEFAULT_RETENTION.toDays()));
        var defaults = new SourceReader.Defaults(defaultMaxAttempts, defaultRetries, defaultRetentionDays);
        var names = config.getOptionalValue(PREFIX, String[].class).map(Arrays::asList).orElse(List.of());
        var loaded = new LinkedHashMap<String, Source>();
        for (String raw : names) {
            String name = raw.trim().toLowerCase(Locale.ROOT);
            if (name.isEmpty()) {
                continue;
            }
            if (!NAME.matcher(name).matches()) {
                problems.add(SettingsCheck.setting(PREFIX) + ": the source name '" + Text.shown(raw, 64)
                        + "' is invalid: use lower-case letters, digits and '-', at most 63 characters");
                continue;
            }
            String key = SettingsCheck.sourceSetting(name, "");
            checked(problems, null, () -> loaded.put(name, reader.read(name, provider(name, key), defaults)));
        }
        if (!problems.isEmpty()) {
            throw new SourceConfigurationException(problems);
        }
        byName = Map.copyOf(loaded);
        inConfiguredOrder = List.copyOf(loaded.values());
        info(() -> "Hookstile sources: " + (loaded.isEmpty()
                ? "none configured (set HOOKSTILE_SOURCES); every delivery will be answered 404"
                : loaded.values().toString()));
    }

    /** The value {@code read} gives, or {@code fallback} with its problem added to {@code problems}. */
    private static <T> T checked(List<String> problems, T fallback, java.util.function.Supplier<T> read) {
        try {
            return read.get();
        } catch (SourceConfigurationException e) {
            problems.addAll(e.problems());
            return fallback;
        }
    }

    /** {@code .provider}: a name in the registry, in any case. */
    private Provider provider(String name, String key) {
        String providerName = config.getOptionalValue(key + "provider", String.class).map(String::trim)
                .filter(p -> !p.isEmpty())
                .orElseThrow(() -> SourceReader.problem(key + "provider", "source '" + name + "' has no provider:"
                        + " set one of " + String.join(", ", Providers.names())));
        return Providers.byName(providerName.toLowerCase(Locale.ROOT))
                .orElseThrow(() -> SourceReader.problem(key + "provider", "unknown provider '"
                        + Text.shown(providerName, 64) + "' (" + String.join(", ", Providers.names()) + ")"));
    }

    public Optional<Source> find(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** Attempts before an event is dead, for sources that do not set their own. */
    public int defaultMaxAttempts() {
        return defaultMaxAttempts;
    }

    /** In-process retries, for sources that do not set their own. */
    public int defaultRetries() {
        return defaultRetries;
    }

    /** Every source, in the configured order. */
    public List<Source> all() {
        return inConfiguredOrder;
    }
}

