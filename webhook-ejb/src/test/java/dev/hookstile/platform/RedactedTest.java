package dev.hookstile.platform;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RedactedTest {

    static List<RedactionCases.Case> cases() {
        return RedactionCases.all();
    }

    /** The cases of redaction-cases.tsv, which the shell scripts' redact answers alike (LauncherRedactionTest). */
    @ParameterizedTest
    @MethodSource("cases")
    void hidesCredentialsQueryStringsAndSecretOptionsButKeepsWhereTheUrlPoints(RedactionCases.Case c) {
        assertEquals(c.expected(), Redacted.url(c.input()));
    }

    @Test
    void leavesNothingAsItIs() {
        assertNull(Redacted.url(null));
        assertEquals("", Redacted.url(""));
    }

    @Test
    void anEndpointIsItsSchemeHostAndPortOnly() {
        assertEquals("https://hooks.slack.com",
                Redacted.endpoint("https://hooks.slack.com/services/T0000/B0000/XXXXXXXXXXXXXXXXXXXXXXXX"));
        assertEquals("https://example.webhook.office.com",
                Redacted.endpoint("https://example.webhook.office.com/webhookb2/abc@def/IncomingWebhook/123/456"));
        assertEquals("http://127.0.0.1:18771", Redacted.endpoint("http://127.0.0.1:18771/hooks"));
        assertEquals("https://example.com:8443", Redacted.endpoint("https://relay:pa55@example.com:8443/in?token=t#f"));
        assertEquals("http://[::1]:8080", Redacted.endpoint("http://[::1]:8080/t0k3n"));
        assertEquals("https://example.com", Redacted.endpoint("https://example.com"));
        assertEquals("jdbc:sqlserver://h", Redacted.endpoint("jdbc:sqlserver://h;user=a;pwd=s3cret"));
    }

    @Test
    void everyUrlInATextIsCutToItsEndpoint() {
        assertEquals("IOException: cannot reach https://hooks.slack.com, nor http://b:81 (password=***)",
                Redacted.endpoint("IOException: cannot reach https://hooks.slack.com/services/T/B/s3cret, nor "
                        + "http://b:81/x?y (password=hunter2)"));
        assertEquals("x_https://h", Redacted.endpoint("x_https://h/s3cret"));
        assertEquals("HTTP 401", Redacted.endpoint("HTTP 401"));
        assertNull(Redacted.endpoint(null));
    }

    /** The one rule for header values never shown: refused deliveries' examples and events' headers alike. */
    @Test
    void aHeaderNamedLikeASignatureACredentialOrASessionIsSecretWhateverItsCase() {
        for (String name : List.of("x-hub-signature-256", "Stripe-Signature", "x-shopify-hmac-sha256",
                "webhook-signature", "Authorization", "proxy-authorization", "cookie", "x-api-key", "x-auth-token",
                "i-twilio-idempotency-token", "x-webhook-secret", "x-password", "x-passwd", "x-credentials",
                "x-session-id")) {
            assertTrue(Redacted.secretHeader(name), name);
        }
        for (String name : List.of("content-type", "user-agent", "x-github-event", "x-github-delivery",
                "webhook-id", "webhook-timestamp", "x-shopify-topic", "x-slack-retry-num")) {
            assertFalse(Redacted.secretHeader(name), name);
        }
        assertFalse(Redacted.secretHeader(null));
        assertEquals("[redacted]", Redacted.HEADER_VALUE);
    }
}
