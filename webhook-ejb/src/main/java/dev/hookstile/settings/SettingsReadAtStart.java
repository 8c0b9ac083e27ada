package dev.hookstile.settings;

import jakarta.annotation.PostConstruct;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.Config;

import java.util.List;

/**
 * A component's settings read once, when its bean is created, and kept: any problem refuses the start, all of them
 * in one message. {@link #problems} reads the given configuration into an instance of its own ({@link #unread}), so
 * a check changes nothing in a bean that serves.
 */
public abstract class SettingsReadAtStart implements SettingsCheck {

    @Inject
    protected Config config;

    /** Reads {@link #config} into this instance, keeping what is valid: every problem found, none when all are. */
    protected abstract List<String> read();

    /** A new instance that has read nothing, for a check. */
    protected abstract SettingsReadAtStart unread();

    @PostConstruct
    protected void load() {
        List<String> problems = read();
        if (!problems.isEmpty()) {
            throw new IllegalStateException(String.join("; ", problems));
        }
    }

    @Override
    public List<String> problems(Config settings) {
        SettingsReadAtStart check = unread();
        check.config = settings;
        return check.read();
    }
}
