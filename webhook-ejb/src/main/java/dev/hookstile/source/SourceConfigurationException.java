package dev.hookstile.source;

import java.util.List;

/**
 * The source configuration is wrong: each problem is one line that starts with the setting to fix, as an environment
 * variable and as a property ({@code HOOKSTILE_SOURCES_PAY_PROVIDER (hookstile.sources.pay.provider): ...}), and says
 * what would be valid. Every problem found is listed, not only the first.
 */
public class SourceConfigurationException extends RuntimeException {

    private final List<String> problems;

    public SourceConfigurationException(String problem) {
        this(List.of(problem));
    }

    public SourceConfigurationException(List<String> problems) {
        super(String.join("\n", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
