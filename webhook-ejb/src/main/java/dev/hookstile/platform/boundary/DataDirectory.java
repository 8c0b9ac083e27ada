package dev.hookstile.platform.boundary;

import org.eclipse.microprofile.config.Config;

import java.nio.file.Path;

/**
 * Where Hookstile keeps its state: {@code hookstile.data-dir} / {@code HOOKSTILE_DATA_DIR}, default {@code ./data}
 * (the launcher sets it to an absolute path). One definition, so the embedded database and the generated admin token
 * cannot end up in different places.
 */
public final class DataDirectory {

    public static final String PROPERTY = "hookstile.data-dir";
    static final String DEFAULT = "data";

    private DataDirectory() {
    }

    public static Path of(Config config) {
        return Path.of(config.getOptionalValue(PROPERTY, String.class).filter(d -> !d.isBlank()).orElse(DEFAULT))
                .toAbsolutePath().normalize();
    }
}
