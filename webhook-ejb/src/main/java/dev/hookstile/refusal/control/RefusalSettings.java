package dev.hookstile.refusal.control;

import dev.hookstile.settings.SettingsCheck;
import dev.hookstile.settings.SettingsReadAtStart;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.Config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Which sources keep the bodies of their refused deliveries: {@code HOOKSTILE_SOURCES_<NAME>_KEEP_REFUSED_BODIES}
 * ({@code hookstile.sources.<name>.keep-refused-bodies}), {@code false} unless set. Off by default because a refused
 * body is untrusted input a sender chose, possibly a stranger's; an operator turns it on for a source to see what a
 * proxy did to its bodies. Anything but {@code true} or {@code false} refuses the start, naming the setting.
 */
@ApplicationScoped
public class RefusalSettings extends SettingsReadAtStart {

    private Set<String> keepingBodies = Set.of();

    public RefusalSettings() {
    }

    /** For unit tests: the settings the given configuration holds. */
    public RefusalSettings(Config config) {
        this.config = config;
        load();
    }

    @Override
    protected RefusalSettings unread() {
        return new RefusalSettings();
    }

    /** Whether the source of this name keeps its refused deliveries' bodies. */
    public boolean keepsBodies(String source) {
        return keepingBodies.contains(source);
    }

    @Override
    protected List<String> read() {
        var problems = new ArrayList<String>();
        var keeping = new HashSet<String>();
        for (String name : SettingsCheck.sourceNames(config)) {
            String property = SettingsCheck.sourceSetting(name, "keep-refused-bodies");
            Optional<String> value = config.getOptionalValue(property, String.class).map(String::trim)
                    .filter(v -> !v.isEmpty());
            if (value.isEmpty() || value.get().equalsIgnoreCase("false")) {
                continue;
            }
            if (value.get().equalsIgnoreCase("true")) {
                keeping.add(name);
            } else {
                String shown = value.get().length() > 16 ? value.get().substring(0, 16) + "..." : value.get();
                problems.add(SettingsCheck.setting(property) + ": must be true or false, not '"
                        + shown.replaceAll("[^\\p{Graph}]", "?") + "'");
            }
        }
        keepingBodies = Set.copyOf(keeping);
        return problems;
    }
}
