package dev.hookstile.console.boundary;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

    @Test
    void theConsolesFilesAreRevalidatedAndVersionedWebJarsKept() {
        assertEquals("no-cache", ConsoleAssets.cacheControl("/console/app.js"));
        assertEquals("no-cache", ConsoleAssets.cacheControl("/console/"));
        assertEquals("public, max-age=31536000, immutable",
                ConsoleAssets.cacheControl("/_static/htm/3.1.1/preact/standalone.module.js"));
        assertEquals("public, max-age=31536000, immutable",
                ConsoleAssets.cacheControl("/webjars/uplot/1.6.30/dist/uPlot.iife.min.js"));
    }

    @Test
    void onlyTextIsCompressed() {
        assertTrue(ConsoleAssets.compressible("/console/"));
        assertTrue(ConsoleAssets.compressible("/console/pages/event.js"));
        assertTrue(ConsoleAssets.compressible("/webjars/uplot/1.6.30/dist/uPlot.min.css"));
        assertFalse(ConsoleAssets.compressible("/webjars/some/1.0/logo.png"));
        assertFalse(ConsoleAssets.compressible("/_static/htm/3.1.1/LICENSE"));
    }
}
