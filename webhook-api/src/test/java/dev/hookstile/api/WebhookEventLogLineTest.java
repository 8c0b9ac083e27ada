package dev.hookstile.api;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class WebhookEventLogLineTest {

    @Test
    void theSendersIdAndTypeCannotForgeALineCloseTheQuotesOrBecomeAPlaceholder() {
        var event = new WebhookEvent("gh", "github", "evt\"1\n[INFO] forged {0}", "push\u202etxt.exe", Instant.EPOCH, 2,
                Map.of(), "{}".getBytes(StandardCharsets.UTF_8));

        assertEquals("WebhookEvent[gh/\"evt\\\"1\\u000a[INFO] forged \\u007b0\\u007d\" type=\"push\\u202etxt.exe\" attempt=2]",
                event.toString());
    }
}
