package dev.hookstile.notify.control;

import dev.hookstile.MapConfig;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NotifySettingsTest {

    /** "a-notify-secret-of-32-bytes-long" in base64. */
    private static final String SECRET = "whsec_YS1ub3RpZnktc2VjcmV0LW9mLTMyLWJ5dGVzLWxvbmc=";

    private static NotifySettings settings(String... pairs) {
        var values = new HashMap<String, String>();
        for (int i = 0; i < pairs.length; i += 2) {
            values.put(pairs[i], pairs[i + 1]);
        }
        return new NotifySettings(new MapConfig(values));
    }

    private static String refusal(String... pairs) {
        return assertThrows(NotifyConfigurationException.class, () -> settings(pairs)).getMessage();
    }

    @Test
    void withoutAUrlNothingIsNotifiedAndTheDefaultsHold() {
        NotifySettings off = settings();

        assertFalse(off.enabled());
        assertTrue(off.endpoint().isEmpty());
        assertEquals(NoticeBody.Format.JSON, off.format());
        assertEquals(Duration.ofSeconds(60), off.group());
        assertEquals(Duration.ofSeconds(300), off.behind());
        assertEquals(Duration.ofHours(1), off.paused(), "a destination paused longer than an hour is announced");
        assertEquals(Duration.ofSeconds(30), off.grace());
        assertEquals("/console/#/dead?source=gh", off.link("dead?source=gh"));
        assertFalse(off.absoluteLinks());
    }

    @Test
    void aUrlWithItsSecretIsTheEndpointAndTheSettingsAreRead() {
        NotifySettings on = settings("hookstile.notify.url", " https://ops.example.com/hooks/hookstile ",
                "hookstile.notify.secret", SECRET, "hookstile.notify.format", "Slack",
                "hookstile.notify.group-seconds", "5", "hookstile.notify.grace-seconds", "0",
                "hookstile.notify.behind-seconds", "0", "hookstile.console.url", "https://hooks.example.com/console",
                "hookstile.notify.paused-seconds", "0");

        assertTrue(on.enabled());
        assertEquals(Duration.ZERO, on.paused(), "0 announces no pause");
        assertEquals("https://ops.example.com/hooks/hookstile", on.endpoint().orElseThrow().url().toString());
        assertArrayEquals("a-notify-secret-of-32-bytes-long".getBytes(StandardCharsets.UTF_8),
                on.endpoint().orElseThrow().secret());
        assertEquals(NoticeBody.Format.SLACK, on.format());
        assertEquals(Duration.ofSeconds(5), on.group());
        assertEquals(Duration.ZERO, on.grace());
        assertEquals(Duration.ZERO, on.behind(), "0 watches no backlog");
        assertEquals("https://hooks.example.com/console/#/overview?source=gh", on.link("overview?source=gh"));
        assertTrue(on.absoluteLinks());
    }

    @Test
    void aUrlWithoutASecretRefusesTheStartNamingTheVariable() {
        String message = refusal("hookstile.notify.url", "https://ops.example.com/hooks");

        assertTrue(message.contains("HOOKSTILE_NOTIFY_SECRET (hookstile.notify.secret): is required with HOOKSTILE_NOTIFY_URL"), message);
    }

    @Test
    void aMalformedSecretRefusesTheStartWithoutQuotingIt() {
        for (String secret : new String[]{"whsec_not*base64!", "whsec_"}) {
            String message = refusal("hookstile.notify.url", "https://ops.example.com/hooks",
                    "hookstile.notify.secret", secret);

            assertTrue(message.startsWith("HOOKSTILE_NOTIFY_SECRET (hookstile.notify.secret): "), message);
            assertFalse(message.contains(secret) && secret.length() > "whsec_".length(), message);
        }
    }

    /** A guessable key lets anyone forge an operator's notifications: under 16 key bytes refuses the start. */
    @Test
    void aSecretUnderSixteenKeyBytesRefusesTheStartNamingTheSetting() {
        for (int bytes : new int[]{1, 15}) {
            String key = Base64.getEncoder().encodeToString("n".repeat(bytes).getBytes(StandardCharsets.UTF_8));
            String message = refusal("hookstile.notify.url", "https://ops.example.com/hooks",
                    "hookstile.notify.secret", "whsec_" + key);

            assertTrue(message.startsWith("HOOKSTILE_NOTIFY_SECRET (hookstile.notify.secret): "), message);
            assertTrue(message.contains(bytes + " key bytes") && message.contains("16"), message);
            assertFalse(message.contains(key), "never quoted: " + message);
        }
        String sixteen = Base64.getEncoder().encodeToString("n".repeat(16).getBytes(StandardCharsets.UTF_8));
        assertEquals(16, settings("hookstile.notify.url", "https://ops.example.com/hooks",
                "hookstile.notify.secret", "whsec_" + sixteen).endpoint().orElseThrow().secret().length);
    }

    @Test
    void aUrlThatIsNotAbsoluteHttpRefusesTheStart() {
        for (String url : new String[]{"ftp://ops.example.com/hooks", "/hooks", "https://ops example"}) {
            String message = refusal("hookstile.notify.url", url, "hookstile.notify.secret", SECRET);

            assertTrue(message.startsWith("HOOKSTILE_NOTIFY_URL (hookstile.notify.url): "), message);
            assertFalse(message.contains("ops"), "a URL may carry a token: never quoted: " + message);
        }
    }

    @Test
    void badValuesRefuseTheStartNamingTheirVariable() {
        Map<String, String> bad = Map.of("hookstile.notify.format", "xml",
                "hookstile.notify.group-seconds", "0",
                "hookstile.notify.grace-seconds", "-1",
                "hookstile.notify.behind-seconds", "soon",
                "hookstile.console.url", "https://hooks.example.com/console/#/dead");
        bad.forEach((property, value) -> {
            String message = refusal(property, value);
            assertTrue(message.startsWith(NotifySettings.env(property) + " "), message);
        });
    }

    @Test
    void whatIsLoggedNamesNoSecret() {
        NotifySettings on = settings("hookstile.notify.url", "https://user:pw@ops.example.com/hooks?token=t",
                "hookstile.notify.secret", SECRET);

        String text = on.toString();
        assertTrue(text.contains("ops.example.com"), text);
        for (String hidden : new String[]{"whsec_", "YS1u", "pw", "token"}) {
            assertFalse(text.contains(hidden), text);
        }
    }
}
