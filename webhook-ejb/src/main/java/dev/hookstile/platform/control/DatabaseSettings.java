package dev.hookstile.platform.control;

import dev.hookstile.platform.DataDirectory;
import dev.hookstile.platform.Redacted;
import org.eclipse.microprofile.config.Config;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Where the database is: {@code hookstile.db.url} / {@code HOOKSTILE_DB_URL} (+ {@code _USER}, {@code _PASSWORD}),
 * or, when no URL is set, the embedded H2 database under the data directory ({@code HOOKSTILE_DATA_DIR}, default
 * {@code ./data}) in PostgreSQL mode, which runs the same claim statement.
 */
record DatabaseSettings(String url, String user, String password, int socketTimeoutSeconds) {

    /**
     * The longest Hookstile waits for any answer from PostgreSQL ({@code hookstile.db.socket-timeout-seconds}): a
     * database that stops answering without refusing (a partition, a failover) must not hold request and consumer
     * threads for ever. Longer than any statement a handler should run in a webhook's transaction.
     */
    static final int DEFAULT_SOCKET_TIMEOUT_SECONDS = 30;

    // LOCK_TIMEOUT: a delivery claiming an event that another one holds waits for it, as on PostgreSQL, instead of
    // failing after H2's default second; longer than one try may take (30 s).
    static final String EMBEDDED_OPTIONS = ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH"
            + ";DB_CLOSE_ON_EXIT=FALSE;LOCK_TIMEOUT=35000";

    static DatabaseSettings from(Config config) {
        Optional<String> url = config.getOptionalValue("hookstile.db.url", String.class).filter(u -> !u.isBlank());
        int socketTimeout = config.getOptionalValue("hookstile.db.socket-timeout-seconds", Integer.class)
                .orElse(DEFAULT_SOCKET_TIMEOUT_SECONDS);
        if (url.isPresent()) {
            return new DatabaseSettings(url.get().trim(),
                    config.getOptionalValue("hookstile.db.user", String.class).orElse(null),
                    config.getOptionalValue("hookstile.db.password", String.class).orElse(null), socketTimeout);
        }
        Path file = DataDirectory.of(config).resolve("db").resolve("hookstile");
        return new DatabaseSettings("jdbc:h2:file:" + file + EMBEDDED_OPTIONS, "sa", "", socketTimeout);
    }

    boolean embedded() {
        return url.startsWith("jdbc:h2:");
    }

    /** The URL without credentials or options, safe to log. */
    String describe() {
        int options = url.indexOf(url.startsWith("jdbc:h2:") ? ';' : '?');
        return Redacted.url(options < 0 ? url : url.substring(0, options));
    }
}
