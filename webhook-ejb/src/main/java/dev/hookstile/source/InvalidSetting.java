package dev.hookstile.source;

/** A provider-specific source setting is missing or wrong; the source configuration names the variable to fix. */
public class InvalidSetting extends IllegalArgumentException {

    private final String setting;
    private final String problem;

    /**
     * @param setting the setting's key below the source, e.g. {@code signature-header}
     * @param problem what is wrong, e.g. {@code "is required"}
     */
    public InvalidSetting(String setting, String problem) {
        super(setting + " " + problem);
        this.setting = setting;
        this.problem = problem;
    }

    public String setting() {
        return setting;
    }

    public String problem() {
        return problem;
    }
}
