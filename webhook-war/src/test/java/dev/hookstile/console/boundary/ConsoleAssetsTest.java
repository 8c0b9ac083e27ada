package dev.hookstile.console.boundary;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConsoleAssetsTest {

    @Test
    void onlyTheConsoleDirectoryIsItsPage() {
        assertTrue(ConsoleAssets.isPage("/console/"));
        assertFalse(ConsoleAssets.isPage("/console/app.js"));
        assertFalse(ConsoleAssets.isPage("/console"));
        assertFalse(ConsoleAssets.isPage("/console/pages/"));
        assertFalse(ConsoleAssets.isPage("/webjars/"));
    }
}
