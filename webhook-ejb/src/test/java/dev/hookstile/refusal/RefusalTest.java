package dev.hookstile.refusal;

import dev.hookstile.source.Rejection;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RefusalTest {

    @Test
    void noSignatureCredentialOrSessionIsKept() {
        var sent = new LinkedHashMap<String, String>();
        sent.put("X-Hub-Signature-256", "sha256=deadbeef");
        sent.put("Stripe-Signature", "t=1,v1=abc");
        sent.put("X-Shopify-Hmac-Sha256", "abc=");
        sent.put("webhook-signature", "v1,abc");
        sent.put("Authorization", "Bearer secret-token");
        sent.put("Cookie", "hookstile_session=abc");
        sent.put("X-Api-Key", "k");
        sent.put("X-GitHub-Event", "push");

        Refusal refusal = example(sent, null);

        assertEquals(Map.of("x-hub-signature-256", "[redacted]", "stripe-signature", "[redacted]",
                "x-shopify-hmac-sha256", "[redacted]", "webhook-signature", "[redacted]",
                "authorization", "[redacted]", "cookie", "[redacted]", "x-api-key", "[redacted]",
                "x-github-event", "push"), refusal.headers());
    }

    @Test
    void whatASenderControlsIsBounded() {
        var sent = new LinkedHashMap<String, String>();
        for (int i = 0; i < 100; i++) {
            sent.put("X-" + i + "-" + "n".repeat(100), "v".repeat(1000));
        }
        Refusal refusal = Refusal.example(Instant.EPOCH, "evil\nsource" + "x".repeat(100),
                Rejection.UNKNOWN_SOURCE, "d".repeat(5000), "127.0.0.1", sent.keySet(), sent::get, 10, null);

        assertEquals(Refusal.MAX_HEADERS, refusal.headers().size());
        assertTrue(refusal.headers().keySet().stream().allMatch(name -> name.length() <= Refusal.MAX_NAME));
        assertTrue(refusal.headers().values().stream().allMatch(value -> value.length() <= Refusal.MAX_VALUE));
        assertEquals(Refusal.MAX_SOURCE, refusal.source().length());
        assertTrue(refusal.source().startsWith("evil?source"), refusal.source());
        assertEquals(Refusal.MAX_DETAIL, refusal.detail().length());
    }

    @Test
    void withoutItsBodyAnExampleKeepsTheBodysSizeAndHashOnly() throws Exception {
        byte[] body = "{\"id\":\"evt_1\"}".getBytes(StandardCharsets.UTF_8);

        Refusal read = example(Map.of(), body).withoutBody();
        Refusal unread = example(Map.of(), null);

        assertEquals(body.length, read.bodySize());
        assertEquals(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body)), read.bodySha256());
        assertNull(read.body());
        assertFalse(read.bodyKept());
        assertEquals(42, unread.bodySize(), "the declared size when the body was not read");
        assertNull(unread.bodySha256());
        assertFalse(unread.bodyKept());
    }

    @Test
    void aBodyIsKeptUpTo64KiBAndSaysWhenItWasCut() {
        byte[] small = "{\"id\":\"evt_1\"}".getBytes(StandardCharsets.UTF_8);
        byte[] large = new byte[Refusal.MAX_BODY + 10];
        large[Refusal.MAX_BODY - 1] = 'x';

        Refusal whole = example(Map.of(), small);
        Refusal cut = example(Map.of(), large);

        assertArrayEquals(small, whole.body());
        assertFalse(whole.bodyTruncated());
        assertEquals(Refusal.MAX_BODY, cut.body().length);
        assertEquals('x', cut.body()[Refusal.MAX_BODY - 1]);
        assertEquals(large.length, cut.bodySize(), "the size is the whole body's");
        assertTrue(cut.bodyTruncated());
        small[0] = '[';
        assertEquals('{', whole.body()[0], "a copy, not the request's buffer");
    }

    private static Refusal example(Map<String, String> headers, byte[] body) {
        return Refusal.example(Instant.EPOCH, "gh", Rejection.INVALID_SIGNATURE, "no match", "127.0.0.1",
                headers.keySet(), headers::get, 42, body);
    }
}
