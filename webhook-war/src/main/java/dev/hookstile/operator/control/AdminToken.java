package dev.hookstile.operator.control;

import dev.hookstile.platform.DataDirectory;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.Config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Logger;

/**
 * The bearer token that operators present to {@code /api}: {@code HOOKSTILE_ADMIN_TOKEN}
 * ({@code hookstile.admin.token}), or, when that is unset or blank, a token generated at the first start and kept in
 * {@code <data dir>/admin-token}, readable by the owner only. The token itself is never logged, only where it is.
 * Delete the file and restart to rotate it.
 *
 * <p>Only a SHA-256 digest of the token stays in memory, and presented tokens are compared digest to digest: the
 * comparison takes the same time whatever the token's content or length.
 */
@ApplicationScoped
public class AdminToken {

    public static final String PROPERTY = "hookstile.admin.token";
    public static final String ENVIRONMENT_VARIABLE = "HOOKSTILE_ADMIN_TOKEN";
    public static final String FILE_NAME = "admin-token";
    /** 256 bits: as strong as the HMAC keys that guard ingest. */
    static final int GENERATED_BYTES = 32;
    /**
     * Shorter tokens refuse the start: the operator API faces the same network as the webhooks, and a short token is
     * a guessable one. A generated token (43 characters) is always longer.
     */
    public static final int MINIMUM_LENGTH = 32;

    private static final Set<PosixFilePermission> OWNER_ONLY =
            EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
    private static final Logger LOG = Logger.getLogger(AdminToken.class.getName());

    @Inject
    Config config;

    private volatile byte[] digest;

    public AdminToken() {
    }

    /** For unit tests and tools: the token resolved at once from these settings. */
    AdminToken(Optional<String> configured, Path dataDir) {
        digest = sha256(resolve(configured, dataDir));
    }

    /**
     * Created at deployment, not on the first {@code /api} request: where a generated token is must be logged while
     * the operator is watching the start-up log, and a data directory that cannot hold it must fail the start.
     */
    void eager(@Observes @Initialized(ApplicationScoped.class) Object applicationStarted) {
        // Observing the event instantiates the bean.
    }

    @PostConstruct
    void load() {
        digest = sha256(resolve(config.getOptionalValue(PROPERTY, String.class), DataDirectory.of(config)));
    }

    /** Whether the presented token is the operator token; {@code null} never is. */
    public boolean matches(String presented) {
        return presented != null && MessageDigest.isEqual(digest, sha256(presented));
    }

    /**
     * The configured token when there is one (a blank value counts as unset), else the one in
     * {@code <dataDir>/admin-token}, generated and stored there first if the file is missing or blank.
     */
    static String resolve(Optional<String> configured, Path dataDir) {
        Optional<String> token = configured.map(String::trim).filter(t -> !t.isEmpty());
        if (token.isPresent()) {
            requireStrong(token.get(), ENVIRONMENT_VARIABLE + " (" + PROPERTY + ")");
            LOG.info(() -> "Operator API token: from the configuration (" + ENVIRONMENT_VARIABLE + " / " + PROPERTY + ")");
            return token.get();
        }
        Path file = dataDir.resolve(FILE_NAME);
        Optional<String> stored = read(file);
        if (stored.isPresent()) {
            requireStrong(stored.get(), "the token in " + file);
            LOG.info(() -> "Operator API token: in " + file + " (generated at the first start; delete the file and "
                    + "restart to rotate it, or set " + ENVIRONMENT_VARIABLE + ")");
            return stored.get();
        }
        String generated = generate();
        store(file, generated);
        // Never the token itself: logs are shipped, kept and read by more people than the data directory.
        LOG.info("Operator API token generated into " + file + " (readable by its owner only): send it as "
                + "'Authorization: Bearer <token>' to /api; set " + ENVIRONMENT_VARIABLE + " to choose your own");
        return generated;
    }

    /** Fails the deployment, naming the setting and never the token: guessable tokens must not go live. */
    private static void requireStrong(String token, String where) {
        if (token.length() < MINIMUM_LENGTH) {
            throw new IllegalStateException(where + " is " + token.length() + " characters long; the operator API "
                    + "needs at least " + MINIMUM_LENGTH + ". Generate one with: openssl rand -base64 32 "
                    + "(or unset " + ENVIRONMENT_VARIABLE + " and delete the short token file to have one generated)");
        }
    }

    static String generate() {
        byte[] bytes = new byte[GENERATED_BYTES];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static Optional<String> read(Path file) {
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try {
            Optional<String> token = Optional.of(Files.readString(file, StandardCharsets.UTF_8).trim())
                    .filter(t -> !t.isEmpty());
            if (token.isPresent()) {
                warnIfOthersCanRead(file);
            }
            return token;
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the operator API token from " + file + ": " + e.getMessage()
                    + "; fix its permissions or set " + ENVIRONMENT_VARIABLE, e);
        }
    }

    /**
     * Written to a temporary file that is owner-only from its creation and then renamed: the token is never in a
     * file someone else can read, and a crash cannot leave a half-written token behind.
     */
    private static void store(Path file, String token) {
        Path dir = file.getParent();
        Path temporary = null;
        try {
            Files.createDirectories(dir);
            boolean posix = Files.getFileStore(dir).supportsFileAttributeView(PosixFileAttributeView.class);
            FileAttribute<?>[] ownerOnly = posix
                    ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_ONLY)}
                    : new FileAttribute<?>[0];
            if (!posix) {
                LOG.warning(() -> "The file system of " + dir + " has no POSIX permissions: restrict access to "
                        + file + " by other means");
            }
            temporary = Files.createTempFile(dir, "." + FILE_NAME, ".tmp", ownerOnly);
            Files.writeString(temporary, token + "\n", StandardCharsets.UTF_8);
            try {
                Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException | UnsupportedOperationException e) {
            throw new IllegalStateException("cannot store the generated operator API token in " + file + ": " + e
                    + "; make the data directory writable or set " + ENVIRONMENT_VARIABLE, e);
        } finally {
            if (temporary != null) {
                try {
                    Files.deleteIfExists(temporary);
                } catch (IOException ignored) {
                    // Moved already, or unremovable: either way it holds nothing another user can read.
                }
            }
        }
    }

    private static void warnIfOthersCanRead(Path file) throws IOException {
        if (!Files.getFileStore(file).supportsFileAttributeView(PosixFileAttributeView.class)) {
            return;
        }
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
        if (!OWNER_ONLY.containsAll(permissions)) {
            LOG.warning(() -> file + " is accessible to other users (" + PosixFilePermissions.toString(permissions)
                    + "); restrict it with: chmod 600 " + file);
        }
    }

    private static byte[] sha256(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
