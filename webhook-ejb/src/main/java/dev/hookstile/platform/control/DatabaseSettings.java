package dev.hookstile.platform.control;

import org.eclipse.microprofile.config.Config;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Where the database is: {@code hookstile.db.url} / {@code HOOKSTILE_DB_URL} (+ {@code _USER}, {@code _PASSWORD}),
 * or, when no URL is set, the embedded H2 database under the data directory ({@code HOOKSTILE_DATA_DIR}, default
 * {@code ./data}) in PostgreSQL mode, which runs the same claim statement.
 */
record DatabaseSettings(String url, String user, String password) {

    // LOCK_TIMEOUT: a delivery claiming an event that another one holds waits for it, as on PostgreSQL, instead of
    // failing after H2's default second; longer than one try may take (30 s).
    static final String EMBEDDED_OPTIONS = ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH"
            + ";DB_CLOSE_ON_EXIT=FALSE;LOCK_TIMEOUT=35000";

    static DatabaseSettings from(Config config) {
        Optional<String> url = config.getOptionalValue("hookstile.db.url", String.class).filter(u -> !u.isBlank());
        if (url.isPresent()) {
            return new DatabaseSettings(url.get().trim(),
                    config.getOptionalValue("hookstile.db.user", String.class).orElse(null),
                    config.getOptionalValue("hookstile.db.password", String.class).orElse(null));
        }
        Path file = DataDirectory.of(config).resolve("db").resolve("hookstile");
        return new DatabaseSettings("jdbc:h2:file:" + file + EMBEDDED_OPTIONS, "sa", "");
    }

    boolean embedded() {
        return url.startsWith("jdbc:h2:");
    }

    /** The URL without credentials or options, safe to log. */
    String describe() {
        int options = url.indexOf(url.startsWith("jdbc:h2:") ? ';' : '?');
        return options < 0 ? url : url.substring(0, options);
    }
}
