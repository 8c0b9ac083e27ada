package dev.hookstile.source.boundary;

import dev.hookstile.source.Provider;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProvidersTest {

    @Test
    void everyDocumentedProviderIsRegisteredUnderItsConfigurationName() {
        assertEquals(List.of("github", "hmac", "meta", "shopify", "slack", "standard-webhooks", "stripe", "svix",
                "twilio"), Providers.names());
        for (String name : Providers.names()) {
            assertEquals(name, Providers.byName(name).orElseThrow().name());
        }
    }

    @Test
    void svixAndStandardWebhooksAreDistinctConfigurationsOfOneScheme() {
        Provider svix = Providers.byName("svix").orElseThrow();
        Provider standard = Providers.byName("standard-webhooks").orElseThrow();

        assertEquals(standard.getClass(), svix.getClass());
        assertTrue(svix != standard, "two configurations, two instances");
    }

    @Test
    void unknownProviderIsAbsent() {
        assertTrue(Providers.byName("paypal").isEmpty());
    }

    /** The words the console's event page and {@code GET /api/sources} show, from each provider's own code. */
    @Test
    void everyProviderStatesItsSigningSchemeWithItsHeaderAndNoSecret() {
        Map<String, String> expected = Map.of(
                "github", "HMAC-SHA256 of the body (X-Hub-Signature-256)",
                "stripe", "HMAC-SHA256 of \u201ctimestamp.body\u201d (Stripe-Signature)",
                "standard-webhooks",
                "Standard Webhooks: HMAC-SHA256 of \u201cid.timestamp.body\u201d (webhook-signature)",
                "svix", "Svix: HMAC-SHA256 of \u201cid.timestamp.body\u201d (svix-signature)",
                "shopify", "HMAC-SHA256 of the body, base64 (X-Shopify-Hmac-Sha256)",
                "slack", "HMAC-SHA256 of \u201cv0:timestamp:body\u201d (X-Slack-Signature)",
                "twilio", "HMAC-SHA1 of the URL and parameters (X-Twilio-Signature)",
                "meta", "HMAC-SHA256 of the body with the app secret (X-Hub-Signature-256)");
        expected.forEach((name, scheme) ->
                assertEquals(scheme, Providers.byName(name).orElseThrow().signingScheme(Map.of()), name));
        assertEquals("Standard Webhooks: HMAC-SHA256 of \u201cid.timestamp.body\u201d (webhook-signature), or "
                        + "Ed25519 of the same with a public key (v1a)",
                Providers.byName("standard-webhooks").orElseThrow().signingScheme(Map.of("public-keys", "whpk_x")));
    }

    /** A configured HMAC says how this source configured it, defaults included. */
    @Test
    void theConfiguredHmacDescribesTheSourcesOwnSettings() {
        Provider hmac = Providers.byName("hmac").orElseThrow();
        assertEquals("HMAC-SHA256 of the body, hex (X-Signature)",
                hmac.signingScheme(Map.of("signature-header", "X-Signature", "event-id-header", "X-Id")));
        assertEquals("HMAC-SHA512 of the body, base64 (X-Sig, after \u201csha512=\u201d)",
                hmac.signingScheme(Map.of("signature-header", "X-Sig", "event-id-pointer", "/id",
                        "algorithm", "sha512", "encoding", "base64", "signature-prefix", "sha512=")));
    }
}
