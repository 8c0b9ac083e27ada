package dev.hookstile.operator.control;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AdminTokenTest {

    private static final Logger LOG = Logger.getLogger(AdminToken.class.getName());

    @TempDir
    Path dataDir;

    private final List<String> logged = new ArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            logged.add(record.getMessage());
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void captureLog() {
        LOG.addHandler(capture);
    }

    @AfterEach
    void releaseLog() {
        LOG.removeHandler(capture);
    }

    @Test
    void configuredTokenWinsOverTheFileAndIsNeverLogged() throws IOException {
        String configured = "configured-token-0123456789abcdefghijklmnop";
        Files.writeString(dataDir.resolve(AdminToken.FILE_NAME), "token-from-an-earlier-start\n");

        assertEquals(configured, AdminToken.resolve(Optional.of(configured), dataDir));
        assertEquals("token-from-an-earlier-start\n", Files.readString(dataDir.resolve(AdminToken.FILE_NAME)));
        assertTrue(logged.stream().noneMatch(line -> line.contains(configured)), logged.toString());
    }

    @Test
    void configuredTokenWritesNoFile() throws IOException {
        AdminToken.resolve(Optional.of("configured-token-0123456789abcdefghijklmnop"), dataDir);

        try (var files = Files.list(dataDir)) {
            assertEquals(0, files.count());
        }
    }

    @Test
    void generatesAnOwnerOnlyFileAtTheFirstStartNeverLogsItAndReusesItAfterwards() throws IOException {
        Path data = dataDir.resolve("not-yet-created");

        String first = AdminToken.resolve(Optional.empty(), data);
        List<String> firstLog = List.copyOf(logged);
        logged.clear();
        String second = AdminToken.resolve(Optional.empty(), data);

        Path file = data.resolve(AdminToken.FILE_NAME);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals(first, Files.readString(file).trim());
        assertTrue(first.matches("[A-Za-z0-9_-]{43}"), "32 random bytes, URL-safe base64 without padding: " + first);
        assertEquals(first, second);
        assertTrue(firstLog.stream().noneMatch(line -> line.contains(first)), "never logged: " + firstLog);
        assertTrue(firstLog.stream().anyMatch(line -> line.contains(file.toString())), "says where: " + firstLog);
        assertTrue(logged.stream().noneMatch(line -> line.contains(first)), "not printed again: " + logged);
        assertTrue(logged.stream().anyMatch(line -> line.contains(file.toString())), "says where: " + logged);
        try (var files = Files.list(data)) {
            assertEquals(List.of(file), files.toList(), "no temporary file left behind");
        }
    }

    @Test
    void blankConfigurationCountsAsUnset() {
        String token = AdminToken.resolve(Optional.of("  \t "), dataDir);

        assertEquals(43, token.length());
        assertTrue(Files.exists(dataDir.resolve(AdminToken.FILE_NAME)));
    }

    @Test
    void blankFileIsReplacedByAGeneratedToken() throws IOException {
        Files.writeString(dataDir.resolve(AdminToken.FILE_NAME), "\n");

        String token = AdminToken.resolve(Optional.empty(), dataDir);

        assertEquals(token, Files.readString(dataDir.resolve(AdminToken.FILE_NAME)).trim());
        assertEquals(43, token.length());
    }

    @Test
    void aConfiguredTokenShorterThan32CharactersRefusesTheStartNamingTheSettingNeverTheToken() {
        String weak = "0123456789abcdefghijklmnopqrstu"; // 31

        var refused = assertThrows(IllegalStateException.class, () -> AdminToken.resolve(Optional.of(weak), dataDir));

        assertTrue(refused.getMessage().contains(AdminToken.ENVIRONMENT_VARIABLE), refused.getMessage());
        assertTrue(refused.getMessage().contains(AdminToken.PROPERTY), refused.getMessage());
        assertTrue(refused.getMessage().contains("32"), refused.getMessage());
        assertFalse(refused.getMessage().contains(weak), "never the token: " + refused.getMessage());
        assertTrue(logged.stream().noneMatch(line -> line.contains(weak)), logged.toString());
        assertFalse(Files.exists(dataDir.resolve(AdminToken.FILE_NAME)), "no token generated in its place");
    }

    @Test
    void thirtyTwoCharactersAreEnoughAndSurroundingBlanksDoNotCount() {
        String token = "0123456789abcdefghijklmnopqrstuv"; // 32

        assertEquals(token, AdminToken.resolve(Optional.of(token), dataDir));
        assertThrows(IllegalStateException.class,
                () -> AdminToken.resolve(Optional.of("  " + token.substring(1) + "  "), dataDir));
    }

    @Test
    void aShortTokenWrittenIntoTheFileRefusesTheStartToo() throws IOException {
        Files.writeString(dataDir.resolve(AdminToken.FILE_NAME), "hand-written-short\n");

        var refused = assertThrows(IllegalStateException.class, () -> AdminToken.resolve(Optional.empty(), dataDir));

        assertTrue(refused.getMessage().contains(dataDir.resolve(AdminToken.FILE_NAME).toString()),
                refused.getMessage());
        assertFalse(refused.getMessage().contains("hand-written-short"), refused.getMessage());
    }

    @Test
    void aGeneratedTokenIsLongEnough() {
        assertTrue(AdminToken.generate().length() >= AdminToken.MINIMUM_LENGTH);
        assertTrue(AdminToken.resolve(Optional.empty(), dataDir).length() >= AdminToken.MINIMUM_LENGTH);
    }

    @Test
    void everyGeneratedTokenIsDifferent() {
        assertNotEquals(AdminToken.generate(), AdminToken.generate());
    }

    @Test
    void matchesOnlyTheExactToken() {
        var token = new AdminToken(Optional.of(" exact-token-0123456789abcdefghijklmnop "), dataDir);

        assertTrue(token.matches("exact-token-0123456789abcdefghijklmnop"));
        assertFalse(token.matches("exact-token-0123456789abcdefghijklmno"));
        assertFalse(token.matches("exact-token-0123456789abcdefghijklmnopq"));
        assertFalse(token.matches("EXACT-TOKEN-0123456789ABCDEFGHIJKLMNOP"));
        assertFalse(token.matches(""));
        assertFalse(token.matches(null));
    }
}
