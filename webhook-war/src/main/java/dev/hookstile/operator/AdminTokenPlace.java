package dev.hookstile.operator;

import dev.hookstile.platform.DataDirectory;
import dev.hookstile.settings.SettingsCheck;
import org.eclipse.microprofile.config.Config;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the operator API's admin token is: set ({@value #PROPERTY}), or in {@value #FILE_NAME} under the data
 * directory, generated at the first start. What a start and {@code ./hookstile check} tell the operator, never the
 * token.
 */
public final class AdminTokenPlace {

    public static final String PROPERTY = "hookstile.admin.token";
    public static final String FILE_NAME = "admin-token";

    private AdminTokenPlace() {
    }

    public static String describe(Config config) {
        if (config.getOptionalValue(PROPERTY, String.class).filter(t -> !t.isBlank()).isPresent()) {
            return "admin token: from " + SettingsCheck.setting(PROPERTY);
        }
        Path file = DataDirectory.of(config).resolve(FILE_NAME);
        return "admin token: " + (Files.exists(file) ? "in " + file : "generated into " + file + " at the first start");
    }
}
