package dev.hookstile.notify.control;

import dev.hookstile.platform.Redacted;
import dev.hookstile.settings.SettingsCheck;
import dev.hookstile.source.Destination;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.Config;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What the operator asked to be told, and where, read once at start-up from MicroProfile Config:
 * {@code HOOKSTILE_NOTIFY_URL} (off without it), {@code HOOKSTILE_NOTIFY_SECRET} (a Standard Webhooks secret,
 * {@code whsec_...}, required with a URL), {@code HOOKSTILE_NOTIFY_FORMAT} ({@code json} or {@code slack}),
 * {@code HOOKSTILE_NOTIFY_GROUP_SECONDS}, {@code HOOKSTILE_NOTIFY_GRACE_SECONDS},
 * {@code HOOKSTILE_NOTIFY_BEHIND_SECONDS} and {@code HOOKSTILE_CONSOLE_URL} (the console's public address, for links).
 *
 * <p>A bad value refuses the start, naming the variable: notifications an operator counts on must not be silently
 * off. The secret is never logged, nor in {@link #toString}.
 */
@ApplicationScoped
public class NotifySettings implements SettingsCheck {

    static final String URL = "hookstile.notify.url";
    static final String SECRET = "hookstile.notify.secret";
    static final String FORMAT = "hookstile.notify.format";
    static final String GROUP = "hookstile.notify.group-seconds";
    static final String GRACE = "hookstile.notify.grace-seconds";
    static final String BEHIND = "hookstile.notify.behind-seconds";
    static final String PAUSED = "hookstile.notify.paused-seconds";
    static final String CONSOLE = "hookstile.console.url";

    static final long DEFAULT_GROUP_SECONDS = 60;
    /**
     * How long after a window's end its deaths are counted: a death is recorded moments after its try failed (the
     * time it is filed under), but a busy database, a row lock held by a concurrent delivery of the same event, or
     * two instances' clocks apart can stretch that. A death recorded later than this is in no notification.
     */
    static final long DEFAULT_GRACE_SECONDS = 30;
    static final long DEFAULT_BEHIND_SECONDS = 300;
    /** A maintenance window is an hour or two: a destination paused longer was likely forgotten. */
    static final long DEFAULT_PAUSED_SECONDS = 3_600;
    /** A window of a day at most: longer, and a notification says nothing an operator can still act on. */
    static final long MAX_GROUP_SECONDS = 86_400;
    /** Where the console is served, relative to the server, when no public address is configured. */
    static final String RELATIVE_CONSOLE = "/console/";

    @Inject
    Config config;

    private Destination endpoint;
    private NoticeBody.Format format = NoticeBody.Format.JSON;
    private Duration group = Duration.ofSeconds(DEFAULT_GROUP_SECONDS);
    private Duration grace = Duration.ofSeconds(DEFAULT_GRACE_SECONDS);
    private Duration behind = Duration.ofSeconds(DEFAULT_BEHIND_SECONDS);
    private Duration paused = Duration.ofSeconds(DEFAULT_PAUSED_SECONDS);
    private String console = RELATIVE_CONSOLE;
    private boolean consoleConfigured;

    public NotifySettings() {
    }

    /** For unit tests: the settings the given configuration holds. */
    public NotifySettings(Config config) {
        this.config = config;
        load();
    }

    @Override
    public List<String> problems(Config settings) {
        try {
            new NotifySettings(settings);
            return List.of();
        } catch (NotifyConfigurationException e) {
            return List.of(e.getMessage());
        }
    }

    @PostConstruct
    void load() {
        Optional<String> url = text(URL);
        Optional<String> secret = text(SECRET);
        if (url.isPresent()) {
            URI uri;
            try {
                uri = Destination.url(url.get());
            } catch (IllegalArgumentException e) {
                throw new NotifyConfigurationException(SettingsCheck.setting(URL) + ": " + e.getMessage());
            }
            byte[] key;
            try {
                key = Destination.secretKey(secret.orElseThrow(() -> new NotifyConfigurationException(SettingsCheck.setting(SECRET)
                        + ": is required with " + env(URL) + " (whsec_...): notifications are always signed")));
            } catch (IllegalArgumentException e) {
                // Both names: the setting may be an environment variable or a property (the EAR's system properties).
                throw new NotifyConfigurationException(SettingsCheck.setting(SECRET) + ": " + e.getMessage());
            }
            endpoint = new Destination(uri, key, List.of());
        }
        String formatName = text(FORMAT).orElse("json").toLowerCase(Locale.ROOT);
        format = switch (formatName) {
            case "json" -> NoticeBody.Format.JSON;
            case "slack" -> NoticeBody.Format.SLACK;
            default -> throw new NotifyConfigurationException(SettingsCheck.setting(FORMAT) + ": must be json or slack, not '"
                    + formatName.replaceAll("[^\\p{Graph}]", "?") + "'");
        };
        group = Duration.ofSeconds(seconds(GROUP, DEFAULT_GROUP_SECONDS, 1, MAX_GROUP_SECONDS));
        grace = Duration.ofSeconds(seconds(GRACE, DEFAULT_GRACE_SECONDS, 0, MAX_GROUP_SECONDS));
        behind = Duration.ofSeconds(seconds(BEHIND, DEFAULT_BEHIND_SECONDS, 0, Long.MAX_VALUE / 1000));
        paused = Duration.ofSeconds(seconds(PAUSED, DEFAULT_PAUSED_SECONDS, 0, Long.MAX_VALUE / 1000));
        Optional<String> consoleUrl = text(CONSOLE);
        if (consoleUrl.isPresent()) {
            try {
                String base = Destination.url(consoleUrl.get()).toString();
                if (base.contains("#") || base.contains("?")) {
                    throw new IllegalArgumentException("must be the console's address without query or fragment,"
                            + " e.g. https://hooks.example.com/console/");
                }
                console = base.endsWith("/") ? base : base + "/";
                consoleConfigured = true;
            } catch (IllegalArgumentException e) {
                throw new NotifyConfigurationException(SettingsCheck.setting(CONSOLE) + ": " + e.getMessage());
            }
        }
    }

    private Optional<String> text(String property) {
        return config.getOptionalValue(property, String.class).map(String::trim).filter(v -> !v.isEmpty());
    }

    private long seconds(String property, long fallback, long min, long max) {
        Optional<String> value = text(property);
        if (value.isEmpty()) {
            return fallback;
        }
        long seconds;
        try {
            seconds = Long.parseLong(value.get());
        } catch (NumberFormatException e) {
            throw new NotifyConfigurationException(SettingsCheck.setting(property) + ": must be a whole number of seconds");
        }
        if (seconds < min || seconds > max) {
            throw new NotifyConfigurationException(SettingsCheck.setting(property) + ": must be between " + min + " and " + max);
        }
        return seconds;
    }

    static String env(String property) {
        return property.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT);
    }

    /** Whether an endpoint is configured: without one nothing is watched and nothing is sent. */
    public boolean enabled() {
        return endpoint != null;
    }

    /** The endpoint and its signing secret; empty when notifications are off. */
    public Optional<Destination> endpoint() {
        return Optional.ofNullable(endpoint);
    }

    public NoticeBody.Format format() {
        return format;
    }

    /** The length of the fixed windows deaths and breaker changes are grouped in. */
    public Duration group() {
        return group;
    }

    /** How long after its end a window of deaths is closed and announced. */
    public Duration grace() {
        return grace;
    }

    /** How old a source's oldest waiting event may be before it is behind; zero watches nothing. */
    public Duration behind() {
        return behind;
    }

    /** How long a destination may stay paused before the operator is told; zero tells nothing. */
    public Duration paused() {
        return paused;
    }

    /**
     * The console's address of a view, {@code #/dead?source=gh} say: absolute with {@code HOOKSTILE_CONSOLE_URL},
     * else relative to the server ({@code /console/#/...}).
     */
    public String link(String view) {
        return console + "#/" + view;
    }

    /** Whether {@link #link} gives absolute addresses, which a chat can make clickable. */
    public boolean absoluteLinks() {
        return consoleConfigured;
    }

    @Override
    public String toString() {
        return endpoint == null ? "notifications off (no " + env(URL) + ")"
                : "notifications to " + Redacted.endpoint(endpoint.url().toString()) + " (" + format.name()
                .toLowerCase(Locale.ROOT) + ", grouped by " + group.toSeconds() + " s, behind after "
                + (behind.isZero() ? "never" : behind.toSeconds() + " s") + ", paused too long after "
                + (paused.isZero() ? "never" : paused.toSeconds() + " s") + ")";
    }
}
