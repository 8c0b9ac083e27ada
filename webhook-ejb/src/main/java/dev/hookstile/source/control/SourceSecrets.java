package dev.hookstile.source.control;

import dev.hookstile.settings.SettingsCheck;
import dev.hookstile.source.Provider;
import dev.hookstile.source.SourceConfigurationException;
import org.eclipse.microprofile.config.Config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A source's secrets, {@code _SECRETS} and {@code _SECRETS_FILE}, each decoded by its provider; a secret short enough
 * to guess, a file others may read and a comma in a file's line are accepted with a warning.
 */
final class SourceSecrets {

    /** Below this a secret is accepted with a warning: 128 bits is the least an HMAC key should carry. */
    static final int MIN_SECRET_BYTES = 16;
    private static final Set<PosixFilePermission> OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE);

    private final Config config;
    private final Consumer<Supplier<String>> warn;

    SourceSecrets(Config config, Consumer<Supplier<String>> warn) {
        this.config = config;
        this.warn = warn;
    }

    /**
     * {@code _SECRETS}: comma-separated, {@code \,} a comma inside a secret (MicroProfile Config's list syntax);
     * {@code _SECRETS_FILE}: one secret per line, a comma is part of the secret. Each decoded by the provider.
     */
    List<byte[]> read(String name, String key, Provider provider) {
        List<String> secretTexts = new ArrayList<>();
        List<String> origins = new ArrayList<>();
        config.getOptionalValue(key + "secrets", String[].class).ifPresent(s -> {
            secretTexts.addAll(Arrays.asList(s));
            origins.addAll(Collections.nCopies(s.length, SettingsCheck.variable(key + "secrets")));
        });
        config.getOptionalValue(key + "secrets-file", String.class).ifPresent(f -> {
            List<String> lines = readSecretsFile(name, key, f);
            secretTexts.addAll(lines);
            origins.addAll(Collections.nCopies(lines.size(), SettingsCheck.variable(key + "secrets-file")));
        });
        List<byte[]> secrets = new ArrayList<>();
        for (int i = 0; i < secretTexts.size(); i++) {
            String trimmed = secretTexts.get(i).trim();
            if (!trimmed.isEmpty()) {
                try {
                    secrets.add(provider.decodeSecret(trimmed));
                } catch (IllegalArgumentException e) {
                    boolean split = origins.get(i).endsWith("_SECRETS") && origins.lastIndexOf(origins.get(i)) > 0;
                    throw new SourceConfigurationException(origins.get(i) + " (" + propertyOf(origins.get(i), key)
                            + "): a secret is not valid for provider " + provider.name() + ": " + e.getMessage()
                            + (split ? " (a comma separates secrets in " + origins.get(i) + "; write one inside a"
                            + " secret as \\, or use " + SettingsCheck.variable(key + "secrets-file")
                            + ", one secret per line)" : ""));
                }
                warnIfShort(name, origins.get(i), secrets.get(secrets.size() - 1).length);
            }
        }
        return secrets;
    }

    /**
     * One secret per line: a comma belongs to the secret (a file that used to list secrets comma-separated gets a
     * warning, since each line is now one secret). A file others can read gets a warning too.
     */
    private List<String> readSecretsFile(String source, String key, String file) {
        Path path = Path.of(file);
        List<String> lines;
        try {
            lines = Arrays.asList(Files.readString(path, StandardCharsets.UTF_8).split("\\r?\\n|\\r"));
        } catch (IOException e) {
            throw SourceReader.problem(key + "secrets-file", "cannot read " + file + ": " + e.getMessage());
        }
        try {
            if (Files.getFileStore(path).supportsFileAttributeView(PosixFileAttributeView.class)) {
                Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(path);
                if (permissions.stream().anyMatch(OTHERS::contains)) {
                    warn.accept(() -> "source '" + source + "': the secrets file " + file + " is accessible to other"
                            + " users (" + PosixFilePermissions.toString(permissions) + "); restrict it with: chmod 600 "
                            + file);
                }
            }
        } catch (IOException | UnsupportedOperationException e) {
            warn.accept(() -> "source '" + source + "': cannot check who may read " + file + ": " + e);
        }
        if (lines.stream().anyMatch(line -> line.indexOf(',') >= 0)) {
            warn.accept(() -> "source '" + source + "': a line of " + file + " contains a comma, read as part of that"
                    + " secret: the file holds one secret per line");
        }
        return lines;
    }

    /** A short secret is a guessable one: said at start, without the secret. */
    private void warnIfShort(String source, String origin, int bytes) {
        if (bytes < MIN_SECRET_BYTES) {
            warn.accept(() -> "source '" + source + "': a secret in " + origin + " is " + bytes + " bytes, shorter"
                    + " than " + MIN_SECRET_BYTES + " and easy to guess (generate one with: openssl rand -hex 32)"
                    + (origin.endsWith("_SECRETS") ? "; if a comma split it, write that comma as \\," : ""));
        }
    }

    /** The property an origin ({@code HOOKSTILE_SOURCES_GH_SECRETS} or {@code ..._SECRETS_FILE}) stands for. */
    private static String propertyOf(String origin, String key) {
        return key + (origin.endsWith("_FILE") ? "secrets-file" : "secrets");
    }
}
