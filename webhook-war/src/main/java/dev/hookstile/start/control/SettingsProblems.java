package dev.hookstile.start.control;

import dev.hookstile.settings.SettingsCheck;
import org.eclipse.microprofile.config.Config;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The problems of the settings, gathered as they are found: each component's {@link SettingsCheck} first, then every
 * injected {@link WantedSetting} that no earlier problem named (a component's own check says more about what would be
 * valid).
 */
public final class SettingsProblems {

    private final Config config;
    private final List<String> problems = new ArrayList<>();

    public SettingsProblems(Config config) {
        this.config = config;
    }

    /** Runs every component's check found by {@code loader}; answers the problems they found. */
    public List<String> checkComponents(ClassLoader loader) {
        var found = new ArrayList<String>();
        for (SettingsCheck check : ServiceLoader.load(SettingsCheck.class, loader)) {
            found.addAll(check.problems(config));
        }
        problems.addAll(found);
        return found;
    }

    /** The problem of one injected setting, unless an earlier problem named that setting already. */
    public Optional<String> check(WantedSetting wanted) {
        Optional<String> problem = wanted.problem(config);
        if (problem.isEmpty()) {
            return problem;
        }
        String setting = problem.get().substring(0, problem.get().indexOf(':') + 1);
        if (problems.stream().anyMatch(p -> p.startsWith(setting))) {
            return Optional.empty();
        }
        problems.add(problem.get());
        return problem;
    }

    public List<String> all() {
        return List.copyOf(problems);
    }
}
