package dev.hookstile.source.boundary;

import dev.hookstile.MapConfig;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What an operator's careless setting must not turn into: a trusted Host header, a split or weak secret. */
class SourcesSafetyTest {

    private static Sources sources(Map<String, String> values) {
        return new Sources(new MapConfig(values));
    }

    @Test
    void refusesATwilioSourceWithoutItsPublicUrlNamingTheVariable() {
        var e = assertThrows(SourceConfigurationException.class, () -> sources(Map.of(
                "hookstile.sources", "sms",
                "hookstile.sources.sms.provider", "twilio",
                "hookstile.sources.sms.secrets", "0123456789abcdef0123456789abcdef")));

        assertTrue(e.getMessage().contains("HOOKSTILE_SOURCES_SMS_PUBLIC_URL is required"), e.getMessage());
    }
}
