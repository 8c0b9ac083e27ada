package dev.hookstile.refusal.control;

import dev.hookstile.MapConfig;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RefusalSettingsTest {

    @Test
    void refusedBodiesAreKeptOnlyWhereTurnedOn() {
        var settings = new RefusalSettings(new MapConfig(Map.of("hookstile.sources", "gh, Pay,shop",
                "hookstile.sources.pay.keep-refused-bodies", "TRUE",
                "hookstile.sources.shop.keep-refused-bodies", "false")));

        assertTrue(settings.keepsBodies("pay"));
        assertFalse(settings.keepsBodies("gh"), "off by default");
        assertFalse(settings.keepsBodies("shop"));
        assertFalse(settings.keepsBodies("_other"));
    }

    @Test
    void aValueThatIsNotABooleanIsAProblemNamingTheSetting() {
        List<String> problems = new RefusalSettings().problems(new MapConfig(Map.of("hookstile.sources", "gh",
                "hookstile.sources.gh.keep-refused-bodies", "yes\nplease")));

        assertEquals(List.of("HOOKSTILE_SOURCES_GH_KEEP_REFUSED_BODIES (hookstile.sources.gh.keep-refused-bodies): "
                + "must be true or false, not 'yes?please'"), problems);
    }
}
