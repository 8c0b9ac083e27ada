package dev.hookstile.platform.control;

import dev.hookstile.settings.SettingsCheck;
import org.eclipse.microprofile.config.Config;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The database settings a start would refuse: a URL that is neither PostgreSQL's nor H2's (the claim statement is
 * written for those two), and a socket timeout that is not a positive whole number of seconds.
 */
public class DatabaseCheck implements SettingsCheck {

    static final String URL = "hookstile.db.url";
    static final String SOCKET_TIMEOUT = "hookstile.db.socket-timeout-seconds";

    @Override
    public List<String> problems(Config config) {
        var problems = new ArrayList<String>();
        Optional<String> url = config.getOptionalValue(URL, String.class).map(String::trim).filter(u -> !u.isEmpty());
        if (url.isPresent() && !url.get().startsWith("jdbc:postgresql:") && !url.get().startsWith("jdbc:h2:")) {
            // Never the URL itself: it may carry a password.
            problems.add(SettingsCheck.setting(URL) + ": must be a PostgreSQL JDBC URL, jdbc:postgresql://host:5432/"
                    + "database (unset: the embedded H2 database under the data directory)");
        }
        config.getOptionalValue(SOCKET_TIMEOUT, String.class).map(String::trim).filter(t -> !t.isEmpty())
                .ifPresent(timeout -> {
                    try {
                        if (Integer.parseInt(timeout) < 1) {
                            problems.add(SettingsCheck.setting(SOCKET_TIMEOUT) + ": must be at least 1 second");
                        }
                    } catch (NumberFormatException e) {
                        problems.add(SettingsCheck.setting(SOCKET_TIMEOUT) + ": must be a whole number of seconds");
                    }
                });
        return problems;
    }
}
