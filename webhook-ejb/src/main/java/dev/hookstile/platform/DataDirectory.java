package dev.hookstile.platform;

import org.eclipse.microprofile.config.Config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * Where Hookstile keeps its state: {@code hookstile.data-dir} / {@code HOOKSTILE_DATA_DIR}, default {@code ./data}
 * (the launcher sets it to an absolute path). One definition, so the embedded database and the generated admin token
 * cannot end up in different places.
 *
 * <p>It holds payloads (embedded database, broker store) and the generated operator token, so it is its owner's
 * alone ({@code rwx------}): created so, or restricted so with a warning, the first time it is asked for. Done here
 * and not only by {@code ./hookstile}: the EAR on Payara Server has no launcher, and that server's umask is usually
 * {@code 022}.
 */
public final class DataDirectory {

    public static final String PROPERTY = "hookstile.data-dir";
    static final String DEFAULT = "data";
    static final Set<PosixFilePermission> OWNER_ONLY = EnumSet.of(PosixFilePermission.OWNER_READ,
            PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE);

    private static final Logger LOG = Logger.getLogger(DataDirectory.class.getName());
    private static final Set<Path> PREPARED = ConcurrentHashMap.newKeySet();

    private DataDirectory() {
    }

    public static Path of(Config config) {
        Path directory = Path.of(config.getOptionalValue(PROPERTY, String.class).filter(d -> !d.isBlank())
                .orElse(DEFAULT)).toAbsolutePath().normalize();
        if (PREPARED.add(directory)) {
            ownerOnly(directory);
        }
        return directory;
    }

    /** Creates the directory owner-only, or takes group and others' access away from an existing one. */
    static void ownerOnly(Path directory) {
        try {
            boolean exists = Files.isDirectory(directory);
            if (!exists) {
                Files.createDirectories(directory);
            }
            if (!Files.getFileStore(directory).supportsFileAttributeView(PosixFileAttributeView.class)) {
                LOG.warning(() -> "The file system of " + directory + " has no POSIX permissions: restrict access to"
                        + " it by other means; it holds payloads and the operator token");
                return;
            }
            Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(directory);
            if (!permissions.equals(OWNER_ONLY)) {
                Files.setPosixFilePermissions(directory, OWNER_ONLY);
                if (exists) {
                    LOG.warning(() -> "The data directory " + directory + " was accessible to other users ("
                            + PosixFilePermissions.toString(permissions) + "): restricted to its owner (rwx------)");
                }
            }
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            // Whatever needs the directory fails next with its own, clearer message; this one says why.
            LOG.warning(() -> "Cannot make the data directory " + directory + " owner-only: " + e);
        }
    }
}
