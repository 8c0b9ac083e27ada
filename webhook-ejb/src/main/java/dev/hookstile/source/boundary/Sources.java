package dev.hookstile.source.boundary;

import dev.hookstile.platform.Text;
import dev.hookstile.source.SourceConfigurationException;

import dev.hookstile.source.Source;

import dev.hookstile.source.Destination;
import dev.hookstile.source.Ed25519;

import dev.hookstile.source.BackOfficeDestination;

import dev.hookstile.source.InvalidSetting;
import dev.hookstile.source.JsonMatch;
import dev.hookstile.source.Provider;
import dev.hookstile.settings.SettingsCheck;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.Config;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.PrivateKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntUnaryOperator;
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
 * <p>Longer than 300 lines because every setting of every source is checked here and each refusal names its setting:
 * many small checks that belong together.
 */
@ApplicationScoped
public class Sources implements SettingsCheck {

    static final String PREFIX = "hookstile.sources";
    static final Duration DEFAULT_TOLERANCE = Provider.DEFAULT_TOLERANCE;
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");
    private static final Logger LOG = Logger.getLogger(Sources.class.getName());
    /** Below this a secret is accepted with a warning: 128 bits is the least an HMAC key should carry. */
    static final int MIN_SECRET_BYTES = 16;
    private static final Set<PosixFilePermission> OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE);

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
        defaultMaxAttempts = checked(problems, Source.DEFAULT_MAX_ATTEMPTS, () -> limit(
                "hookstile.processing.max-attempts", Source.DEFAULT_MAX_ATTEMPTS, Source::requireMaxAttempts));
        defaultRetries = checked(problems, Source.DEFAULT_RETRIES, () -> limit(
                "hookstile.processing.retries", Source.DEFAULT_RETRIES, Source::requireRetries));
        defaultRetentionDays = checked(problems, Source.DEFAULT_RETENTION.toDays(), () -> {
            long days = number("hookstile.retention.days", Long.class).orElse(Source.DEFAULT_RETENTION.toDays());
            if (days < 0) {
                throw problem("hookstile.retention.days", "must not be negative (0 keeps every event), not " + days);
            }
            return days;
        });
        var names = config.getOptionalValue(PREFIX, String[].class).map(Arrays::asList).orElse(List.of());
        var loaded = new LinkedHashMap<String, Source>();
        for (String raw : names) {
            String name = raw.trim().toLowerCase(Locale.ROOT);
            if (name.isEmpty()) {
                continue;
            }
            if (!NAME.matcher(name).matches()) {
                problems.add(setting(PREFIX) + ": the source name '" + Text.shown(raw, 64)
                        + "' is invalid: use lower-case letters, digits and '-', at most 63 characters");
                continue;
            }
            checked(problems, null, () -> loaded.put(name, read(name)));
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

    /**
     * A number setting: a value that is not one is a problem naming the setting, not MicroProfile Config's
     * conversion error, which names neither the variable nor what would be valid.
     */
    private <T extends Number> Optional<T> number(String property, Class<T> type) {
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

    /**
     * A limit of processing ({@code max-attempts}, {@code retries}), checked by the rule {@link Source} keeps for it
     * (one rule for the default of every source and a source's own), its refusal naming the setting.
     */
    private int limit(String property, int fallback, IntUnaryOperator rule) {
        int value = number(property, Integer.class).orElse(fallback);
        try {
            return rule.applyAsInt(value);
        } catch (IllegalArgumentException e) {
            throw problem(property, e.getMessage());
        }
    }

    /** How every problem starts: the environment variable and the property, as either may have been set. */
    static String setting(String property) {
        return SettingsCheck.setting(property);
    }

    private static SourceConfigurationException problem(String property, String text) {
        return new SourceConfigurationException(setting(property) + ": " + text);
    }


    /** One source's settings, each checked: the provider, its secrets and settings, the limits, where it leads. */
    private Source read(String name) {
        String key = PREFIX + "." + name + ".";
        Provider provider = provider(name, key);
        List<byte[]> secrets = secrets(name, key, provider);
        Map<String, String> settings = providerSettings(key, provider);
        if (secrets.isEmpty() && !provider.verifiesWithoutSecrets(settings)) {
            throw problem(key + "secrets", "source '" + name + "' has no secret: set it, or "
                    + setting(key + "secrets-file") + " (a file with one secret per line)"
                    + (provider.settingNames().contains("public-keys") ? ", or " + setting(key + "public-keys")
                    + " (whpk_ public keys)" : ""));
        }
        long toleranceSeconds = number(key + "tolerance-seconds", Long.class)
                .orElse(provider.defaultTolerance().toSeconds());
        if (toleranceSeconds <= 0) {
            throw problem(key + "tolerance-seconds", "must be a positive number of seconds, not " + toleranceSeconds);
        }
        int maxAttempts = limit(key + "max-attempts", defaultMaxAttempts, Source::requireMaxAttempts);
        int retries = limit(key + "retries", defaultRetries, Source::requireRetries);
        Duration bodyWindow = bodyDedupWindow(name, key, provider, Map.copyOf(settings));
        if (bodyWindow.toSeconds() > 0 && provider.deliversBatches()) {
            // Every event of a batch shares the body: all but the first would be ignored. Such providers sign the
            // ids inside the body, which is what the option stands in for.
            throw problem(key + "body-dedup-window-seconds", "cannot be used with provider " + provider.name()
                    + ", whose deliveries carry several events in one body (their ids are signed)");
        }
        return new Source(name, provider, secrets, Duration.ofSeconds(toleranceSeconds), settings, maxAttempts,
                retries, bodyWindow, retention(name, key, provider), destination(name, key),
                backOffice(name, key), orderKey(name, key));
    }

    private Provider provider(String name, String key) {
        String providerName = config.getOptionalValue(key + "provider", String.class).map(String::trim)
                .filter(p -> !p.isEmpty())
                .orElseThrow(() -> problem(key + "provider", "source '" + name + "' has no provider: set one of "
                        + String.join(", ", Providers.names())));
        return Providers.byName(providerName.toLowerCase(Locale.ROOT))
                .orElseThrow(() -> problem(key + "provider", "unknown provider '" + Text.shown(providerName, 64) + "' ("
                        + String.join(", ", Providers.names()) + ")"));
    }

    /**
     * {@code _SECRETS}: comma-separated, {@code \,} a comma inside a secret (MicroProfile Config's list syntax);
     * {@code _SECRETS_FILE}: one secret per line, a comma is part of the secret. Each decoded by the provider.
     */
    private List<byte[]> secrets(String name, String key, Provider provider) {
        List<String> secretTexts = new ArrayList<>();
        List<String> origins = new ArrayList<>();
        config.getOptionalValue(key + "secrets", String[].class).ifPresent(s -> {
            secretTexts.addAll(Arrays.asList(s));
            origins.addAll(Collections.nCopies(s.length, envName(key + "secrets")));
        });
        config.getOptionalValue(key + "secrets-file", String.class).ifPresent(f -> {
            List<String> lines = readSecretsFile(name, f);
            secretTexts.addAll(lines);
            origins.addAll(Collections.nCopies(lines.size(), envName(key + "secrets-file")));
        });
        List<byte[]> secrets = new ArrayList<>();
        for (int i = 0; i < secretTexts.size(); i++) {
            String trimmed = secretTexts.get(i).trim();
            if (!trimmed.isEmpty()) {
                try {
                    secrets.add(provider.decodeSecret(trimmed));
                } catch (IllegalArgumentException e) {
                    boolean split = origins.get(i).endsWith("_SECRETS") && origins.lastIndexOf(origins.get(i)) > 0;
                    throw new SourceConfigurationException(origins.get(i) + " (" + propertyOf(origins.get(i), key)
                            + "): a secret is not valid for provider " + provider.name() + ": " + e.getMessage()
                            + (split ? " (a comma separates secrets in " + origins.get(i) + "; write one inside a"
                            + " secret as \\, or use " + envName(key + "secrets-file") + ", one secret per line)" : ""));
                }
                warnIfShort(name, origins.get(i), secrets.get(secrets.size() - 1).length);
            }
        }
        return secrets;
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
        Optional<Long> configured = number(key + "body-dedup-window-seconds", Long.class);
        if (configured.isEmpty()) {
            return safe;
        }
        long seconds = configured.get();
        String variable = envName(key + "body-dedup-window-seconds");
        if (seconds < 0) {
            throw problem(key + "body-dedup-window-seconds", "must not be negative, not " + seconds);
        }
        if (seconds < safe.toSeconds()) {
            warn(() -> "source '" + name + "': " + variable + "=" + seconds + (seconds == 0
                    ? " turns body deduplication off" : " is shorter than " + safe.toSeconds() + " s, "
                    + provider.name() + "'s retry window") + ". The event id or type of " + provider.name()
                    + " is outside its signature: a captured delivery sent again under a fresh id or another type"
                    + (seconds == 0 ? "" : " after " + seconds + " s") + " runs its handlers again."
                    + " See docs/security.md, \"Unsigned event ids\"");
        }
        return Duration.ofSeconds(seconds);
    }

    /** {@code .order-key}: a JSON pointer into the body, e.g. {@code /data/object/customer}. */
    private String orderKey(String name, String key) {
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
    private Duration retention(String name, String key, Provider provider) {
        long days = number(key + "retention-days", Long.class).orElse(defaultRetentionDays);
        if (days < 0) {
            throw problem(key + "retention-days", "must not be negative (0 keeps every event), not " + days);
        }
        Duration retention = Duration.ofDays(days);
        if (days > 0 && retention.compareTo(provider.retryWindow()) < 0) {
            warn(() -> "source '" + name + "': retention of " + days + " days raised to "
                    + provider.retryWindow().toDays() + ", the longest " + provider.name()
                    + " may deliver an event again; an event deleted sooner would be processed twice");
            return provider.retryWindow();
        }
        return retention;
    }

    /**
     * {@code .destination-url} (absolute http or https), {@code .destination-secret} (a Standard Webhooks secret,
     * {@code whsec_...}, required with a URL: a forwarded event is always signed) and {@code .destination-types}.
     */
    private Destination destination(String name, String key) {
        Optional<String> url = config.getOptionalValue(key + "destination-url", String.class).map(String::trim);
        Optional<String> filter = config.getOptionalValue(key + "destination-filter", String.class).map(String::trim)
                .filter(f -> !f.isEmpty());
        if (url.isEmpty() || url.get().isEmpty()) {
            if (filter.isPresent()) {
                throw problem(key + "destination-filter", "filters what is forwarded to "
                        + setting(key + "destination-url") + ", which is not set");
            }
            return null;
        }
        URI uri;
        try {
            uri = Destination.url(url.get());
        } catch (IllegalArgumentException e) {
            throw problem(key + "destination-url", e.getMessage());
        }
        Optional<String> secret = config.getOptionalValue(key + "destination-secret", String.class).map(String::trim)
                .filter(v -> !v.isEmpty());
        Optional<String> signing = config.getOptionalValue(key + "destination-signing-key", String.class)
                .map(String::trim).filter(v -> !v.isEmpty());
        if (secret.isEmpty() && signing.isEmpty()) {
            throw problem(key + "destination-secret", "is required with a destination (whsec_...), or "
                    + setting(key + "destination-signing-key") + " (whsk_..., Ed25519)");
        }
        byte[] key256 = null;
        PrivateKey signingKey = null;
        try {
            key256 = secret.map(Destination::secretKey).orElse(null);
        } catch (IllegalArgumentException e) {
            // Both names: the setting may be an environment variable or a property (the EAR's system properties).
            throw problem(key + "destination-secret", e.getMessage());
        }
        try {
            signingKey = signing.map(Ed25519::signingKey).orElse(null);
        } catch (IllegalArgumentException e) {
            throw problem(key + "destination-signing-key", e.getMessage());
        }
        JsonMatch match;
        try {
            match = filter.map(JsonMatch::parse).orElse(null);
        } catch (IllegalArgumentException e) {
            throw problem(key + "destination-filter", "must be a JSON object the body must contain, e.g."
                    + " {\"data\":{\"object\":{\"livemode\":true}}}, at most " + JsonMatch.MAX_LENGTH
                    + " characters nested at most 32 deep");
        }
        return new Destination(uri, key256, signingKey, types(key), match, pace(key));
    }

    /** {@code .destination-rate} ({@code 50/s}) and {@code .destination-concurrency} (1 to 64). */
    private Destination.Pace pace(String key) {
        double perSecond = 0;
        Optional<String> rate = config.getOptionalValue(key + "destination-rate", String.class).map(String::trim)
                .filter(r -> !r.isEmpty());
        if (rate.isPresent()) {
            try {
                perSecond = Destination.Pace.perSecond(rate.get());
            } catch (IllegalArgumentException e) {
                throw problem(key + "destination-rate", e.getMessage() + ", not '" + Text.shown(rate.get(), 64) + "'");
            }
        }
        int concurrency = number(key + "destination-concurrency", Integer.class).orElse(0);
        if (concurrency < 0 || concurrency == 0 && config.getOptionalValue(key + "destination-concurrency",
                String.class).filter(c -> !c.isBlank()).isPresent() || concurrency > Destination.Pace.MAX_CONCURRENCY) {
            throw problem(key + "destination-concurrency", "must be 1 to " + Destination.Pace.MAX_CONCURRENCY
                    + " requests at once, not " + concurrency);
        }
        return new Destination.Pace(perSecond, concurrency);
    }

    /** {@code .destination-jms}: {@code queue:NAME} or {@code topic:NAME}, with {@code .destination-types}. */
    private BackOfficeDestination backOffice(String name, String key) {
        Optional<String> value = config.getOptionalValue(key + "destination-jms", String.class).map(String::trim);
        if (value.isEmpty() || value.get().isEmpty()) {
            return null;
        }
        try {
            return BackOfficeDestination.parse(value.get(), types(key));
        } catch (IllegalArgumentException e) {
            throw problem(key + "destination-jms", e.getMessage());
        }
    }

    private List<String> types(String key) {
        return config.getOptionalValue(key + "destination-types", String[].class)
                .map(Arrays::asList).orElse(List.of()).stream().map(String::trim).filter(t -> !t.isEmpty()).toList();
    }

    /**
     * One secret per line: a comma belongs to the secret (a file that used to list secrets comma-separated gets a
     * warning, since each line is now one secret). A file others can read gets a warning too.
     */
    private List<String> readSecretsFile(String source, String file) {
        Path path = Path.of(file);
        List<String> lines;
        try {
            lines = Arrays.asList(Files.readString(path, StandardCharsets.UTF_8).split("\\r?\\n|\\r"));
        } catch (IOException e) {
            throw problem(PREFIX + "." + source + ".secrets-file", "cannot read " + file + ": " + e.getMessage());
        }
        try {
            if (Files.getFileStore(path).supportsFileAttributeView(PosixFileAttributeView.class)) {
                Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(path);
                if (permissions.stream().anyMatch(OTHERS::contains)) {
                    warn(() -> "source '" + source + "': the secrets file " + file + " is accessible to other"
                            + " users (" + PosixFilePermissions.toString(permissions) + "); restrict it with: chmod 600 "
                            + file);
                }
            }
        } catch (IOException | UnsupportedOperationException e) {
            warn(() -> "source '" + source + "': cannot check who may read " + file + ": " + e);
        }
        if (lines.stream().anyMatch(line -> line.indexOf(',') >= 0)) {
            warn(() -> "source '" + source + "': a line of " + file + " contains a comma, read as part of that"
                    + " secret: the file holds one secret per line");
        }
        return lines;
    }

    /** A short secret is a guessable one: said at start, without the secret. */
    private void warnIfShort(String source, String origin, int bytes) {
        if (bytes < MIN_SECRET_BYTES) {
            warn(() -> "source '" + source + "': a secret in " + origin + " is " + bytes + " bytes, shorter than "
                    + MIN_SECRET_BYTES + " and easy to guess (generate one with: openssl rand -hex 32)"
                    + (origin.endsWith("_SECRETS") ? "; if a comma split it, write that comma as \\," : ""));
        }
    }

    /** The property an origin ({@code HOOKSTILE_SOURCES_GH_SECRETS} or {@code ..._SECRETS_FILE}) stands for. */
    private static String propertyOf(String origin, String key) {
        return key + (origin.endsWith("_FILE") ? "secrets-file" : "secrets");
    }

    static String envName(String property) {
        return SettingsCheck.variable(property);
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
