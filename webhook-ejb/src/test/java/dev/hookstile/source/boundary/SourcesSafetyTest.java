package dev.hookstile.source.boundary;

import dev.hookstile.source.SourceConfigurationException;

import dev.hookstile.MapConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What an operator's careless setting must not turn into: a trusted Host header, a split or weak secret. */
class SourcesSafetyTest {

    private static final String STRONG = "0123456789abcdef0123456789abcdef";

    private final Logger logger = Logger.getLogger(Sources.class.getName());
    private final List<LogRecord> logged = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            logged.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void listen() {
        logger.addHandler(capture);
    }

    @AfterEach
    void stopListening() {
        logger.removeHandler(capture);
    }

    private List<String> warnings() {
        return logged.stream().filter(r -> r.getLevel() == Level.WARNING).map(LogRecord::getMessage).toList();
    }

    private static Sources github(Map<String, String> secretSettings) {
        var values = new java.util.HashMap<>(secretSettings);
        values.put("hookstile.sources", "gh");
        values.put("hookstile.sources.gh.provider", "github");
        return new Sources(new MapConfig(values));
    }

    private static Path secretsFile(Path dir, String content, String permissions) throws IOException {
        Path file = dir.resolve("gh-secrets");
        Files.writeString(file, content, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(permissions));
        return file;
    }

    @Test
    void refusesATwilioSourceWithoutItsPublicUrlNamingTheVariable() {
        var e = assertThrows(SourceConfigurationException.class, () -> new Sources(new MapConfig(Map.of(
                "hookstile.sources", "sms",
                "hookstile.sources.sms.provider", "twilio",
                "hookstile.sources.sms.secrets", STRONG))));

        assertTrue(e.getMessage().contains("HOOKSTILE_SOURCES_SMS_PUBLIC_URL (hookstile.sources.sms.public-url): is required"), e.getMessage());
    }

    @Test
    void aCommaInASecretsFileLineIsPartOfTheSecretNotASeparator(@TempDir Path dir) throws IOException {
        Path file = secretsFile(dir, "first,half-of-one-secret-0123\nsecond-secret-0123456789\n", "rw-------");

        List<byte[]> secrets = github(Map.of("hookstile.sources.gh.secrets-file", file.toString()))
                .find("gh").orElseThrow().secrets();

        assertEquals(2, secrets.size());
        assertArrayEquals("first,half-of-one-secret-0123".getBytes(StandardCharsets.UTF_8), secrets.get(0));
        assertTrue(warnings().stream().anyMatch(w -> w.contains("contains a comma") && w.contains("one secret per line")),
                "a file written in the old comma-separated form is pointed out: " + warnings());
    }

    @Test
    void anEscapedCommaInTheVariableIsPartOfTheSecret() {
        List<byte[]> secrets = github(Map.of("hookstile.sources.gh.secrets", "with\\,comma-0123456789," + STRONG))
                .find("gh").orElseThrow().secrets();

        assertEquals(2, secrets.size());
        assertArrayEquals("with,comma-0123456789".getBytes(StandardCharsets.UTF_8), secrets.get(0));
    }

    @Test
    void warnsWhenOthersCanReadTheSecretsFile(@TempDir Path dir) throws IOException {
        Path file = secretsFile(dir, STRONG + "\n", "rw-r--r--");

        github(Map.of("hookstile.sources.gh.secrets-file", file.toString()));

        assertTrue(warnings().stream().anyMatch(w -> w.contains(file.toString()) && w.contains("chmod 600")),
                "warned: " + warnings());
        assertFalse(warnings().stream().anyMatch(w -> w.contains(STRONG)), "never the secret: " + warnings());
    }

    @Test
    void saysNothingOfAnOwnerOnlySecretsFileWithAStrongSecret(@TempDir Path dir) throws IOException {
        Path file = secretsFile(dir, STRONG + "\n", "rw-------");

        github(Map.of("hookstile.sources.gh.secrets-file", file.toString()));

        assertEquals(List.of(), warnings());
    }

    @Test
    void warnsOfASecretShorterThan16BytesNamingTheVariableNeverTheSecret() {
        github(Map.of("hookstile.sources.gh.secrets", "p4ss,w0rd-" + STRONG));

        List<String> warnings = warnings();
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("HOOKSTILE_SOURCES_GH_SECRETS is 4 bytes"), warnings.get(0));
        assertTrue(warnings.get(0).contains("write that comma as \\,"), "points at a split secret: " + warnings);
        assertFalse(warnings.get(0).contains("p4ss"), warnings.get(0));
    }
}
