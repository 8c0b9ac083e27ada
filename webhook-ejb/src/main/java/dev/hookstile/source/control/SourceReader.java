package dev.hookstile.source.control;

import dev.hookstile.api.Text;
import dev.hookstile.settings.SettingsCheck;
import dev.hookstile.source.InvalidSetting;
import dev.hookstile.source.Provider;
import dev.hookstile.source.Source;
import dev.hookstile.source.SourceConfigurationException;
import org.eclipse.microprofile.config.Config;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.IntUnaryOperator;
import java.util.function.Supplier;

/**
 * One source read from the configuration ({@code hookstile.sources.<name>.*}), every setting checked and every
 * refusal a {@link SourceConfigurationException} naming its setting: the provider, its secrets
 * ({@link SourceSecrets}) and own settings, the limits, where its events lead ({@link SourceDestinations}).
 */
public final class SourceReader {

    private final Config config;
    private final Consumer<Supplier<String>> warn;
    private final SourceSecrets secrets;
    private final SourceDestinations destinations;

    /** What a source that does not set them gets: the settings for every source. */
    public record Defaults(int maxAttempts, int retries, long retentionDays) {
    }

    /** @param warn what a start warns of (a short secret, a shortened window), said as the caller decides */
    public SourceReader(Config config, Consumer<Supplier<String>> warn) {
        this.config = config;
        this.warn = warn;
        this.secrets = new SourceSecrets(config, warn);
        this.destinations = new SourceDestinations(config);
    }

    /** One source's settings, each checked: the provider, its secrets and settings, the limits, where it leads. */
    public Source read(String name, Provider provider, Defaults defaults) {
        String key = SettingsCheck.sourceSetting(name, "");
        List<byte[]> secrets = this.secrets.read(name, key, provider);
        Map<String, String> settings = providerSettings(key, provider);
        if (secrets.isEmpty() && !provider.verifiesWithoutSecrets(settings)) {
            throw problem(key + "secrets", "source '" + name + "' has no secret: set it, or "
                    + SettingsCheck.setting(key + "secrets-file") + " (a file with one secret per line)"
                    + (provider.settingNames().contains("public-keys")
                    ? ", or " + SettingsCheck.setting(key + "public-keys")
                    + " (whpk_ public keys)" : ""));
        }
        long toleranceSeconds = number(config, key + "tolerance-seconds", Long.class)
                .orElse(provider.defaultTolerance().toSeconds());
        if (toleranceSeconds <= 0) {
            throw problem(key + "tolerance-seconds", "must be a positive number of seconds, not " + toleranceSeconds);
        }
        int maxAttempts = limit(key + "max-attempts", defaults.maxAttempts(), Source::requireMaxAttempts);
        int retries = limit(key + "retries", defaults.retries(), Source::requireRetries);
        Duration bodyWindow = bodyDedupWindow(name, key, provider, Map.copyOf(settings));
        if (bodyWindow.toSeconds() > 0 && provider.deliversBatches()) {
            // Every event of a batch shares the body: all but the first would be ignored. Such providers sign the
            // ids inside the body, which is what the option stands in for.
            throw problem(key + "body-dedup-window-seconds", "cannot be used with provider " + provider.name()
                    + ", whose deliveries carry several events in one body (their ids are signed)");
        }
        return new Source(name, provider, secrets, Duration.ofSeconds(toleranceSeconds), settings, maxAttempts,
                retries, bodyWindow, retention(name, key, provider, defaults.retentionDays()),
                destinations.destination(key), destinations.backOffice(key), orderKey(key));
    }

    /** The provider's own settings that are set, checked by the provider. */
    private Map<String, String> providerSettings(String key, Provider provider) {
        Map<String, String> settings = new HashMap<>();
        for (String setting : provider.settingNames()) {
            config.getOptionalValue(key + setting, String.class).ifPresent(v -> settings.put(setting, v));
        }
        try {
            provider.checkSettings(Map.copyOf(settings));
        } catch (InvalidSetting e) {
            throw problem(key + e.setting(), e.problem());
        }
        return settings;
    }

    /**
     * {@code .body-dedup-window-seconds}, by default the provider's ({@link Provider#defaultBodyDedupWindow}): on
     * for every sender whose event id or type is outside its signature. An operator may shorten it or turn it off
     * ({@code 0}), which lets a captured delivery run its handlers again under a fresh id or another type: said
     * once, at start, as a warning.
     */
    private Duration bodyDedupWindow(String name, String key, Provider provider, Map<String, String> settings) {
        Duration safe = provider.defaultBodyDedupWindow(settings);
        Optional<Long> configured = number(config, key + "body-dedup-window-seconds", Long.class);
        if (configured.isEmpty()) {
            return safe;
        }
        long seconds = configured.get();
        String variable = SettingsCheck.variable(key + "body-dedup-window-seconds");
        if (seconds < 0) {
            throw problem(key + "body-dedup-window-seconds", "must not be negative, not " + seconds);
        }
        if (seconds < safe.toSeconds()) {
            warn.accept(() -> "source '" + name + "': " + variable + "=" + seconds + (seconds == 0
                    ? " turns body deduplication off" : " is shorter than " + safe.toSeconds() + " s, "
                    + provider.name() + "'s retry window") + ". The event id or type of " + provider.name()
                    + " is outside its signature: a captured delivery sent again under a fresh id or another type"
                    + (seconds == 0 ? "" : " after " + seconds + " s") + " runs its handlers again."
                    + " See docs/security.md, \"Unsigned event ids\"");
        }
        return Duration.ofSeconds(seconds);
    }

    /** {@code .order-key}: a JSON pointer into the body, e.g. {@code /data/object/customer}. */
    private String orderKey(String key) {
        Optional<String> pointer = config.getOptionalValue(key + "order-key", String.class).map(String::trim);
        if (pointer.isEmpty() || pointer.get().isEmpty()) {
            return null;
        }
        if (!pointer.get().startsWith("/")) {
            throw problem(key + "order-key", "must be a JSON pointer into the body, starting with '/' (e.g. /data/object/customer)");
        }
        return pointer.get();
    }

    /**
     * The source's retention, never shorter than its sender's retry window: an event deleted while the sender may
     * still deliver it again would be processed again. Zero keeps every event.
     */
    private Duration retention(String name, String key, Provider provider, long defaultDays) {
        long days = retentionDays(key + "retention-days", defaultDays);
        Duration retention = Duration.ofDays(days);
        if (days > 0 && retention.compareTo(provider.retryWindow()) < 0) {
            warn.accept(() -> "source '" + name + "': retention of " + days + " days raised to "
                    + provider.retryWindow().toDays() + ", the longest " + provider.name()
                    + " may deliver an event again; an event deleted sooner would be processed twice");
            return provider.retryWindow();
        }
        return retention;
    }

    /** A retention in days, the setting for every source's or a source's own: zero keeps every event. */
    public long retentionDays(String property, long fallback) {
        long days = number(config, property, Long.class).orElse(fallback);
        if (days < 0) {
            throw problem(property, "must not be negative (0 keeps every event), not " + days);
        }
        return days;
    }

    /**
     * A limit of processing ({@code max-attempts}, {@code retries}), checked by the rule {@link Source} keeps for it
     * (one rule for the default of every source and a source's own), its refusal naming the setting.
     */
    public int limit(String property, int fallback, IntUnaryOperator rule) {
        int value = number(config, property, Integer.class).orElse(fallback);
        try {
            return rule.applyAsInt(value);
        } catch (IllegalArgumentException e) {
            throw problem(property, e.getMessage());
        }
    }

    /**
     * A number setting: a value that is not one is a problem naming the setting, not MicroProfile Config's
     * conversion error, which names neither the variable nor what would be valid.
     */
    static <T extends Number> Optional<T> number(Config config, String property, Class<T> type) {
        Optional<String> text = config.getOptionalValue(property, String.class).map(String::trim)
                .filter(v -> !v.isEmpty());
        if (text.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(type.cast(type == Integer.class ? (Object) Integer.valueOf(text.get())
                    : (Object) Long.valueOf(text.get())));
        } catch (NumberFormatException e) {
            throw problem(property, "'" + Text.shown(text.get(), 64) + "' is not a whole number");
        }
    }

    /** A problem of one setting, starting with its names: the environment variable and the property. */
    public static SourceConfigurationException problem(String property, String text) {
        return new SourceConfigurationException(SettingsCheck.setting(property) + ": " + text);
    }
}
