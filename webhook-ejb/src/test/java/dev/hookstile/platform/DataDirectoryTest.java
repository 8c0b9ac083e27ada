package dev.hookstile.platform;

import dev.hookstile.MapConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DataDirectoryTest {

    private static Path of(Path directory) {
        return DataDirectory.of(new MapConfig(Map.of(DataDirectory.PROPERTY, directory.toString())));
    }

    @Test
    void createsAMissingDataDirectoryForItsOwnerOnly(@TempDir Path parent) throws IOException {
        Path data = parent.resolve("var").resolve("hookstile");

        assertEquals(data, of(data));

        assertTrue(Files.isDirectory(data));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(data)));
    }

    @Test
    void takesGroupAndOthersAccessAwayFromAnExistingOne(@TempDir Path parent) throws IOException {
        Path data = Files.createDirectory(parent.resolve("data"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwxr-xr-x"));

        of(data);

        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(data)));
    }
}
