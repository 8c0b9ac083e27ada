package dev.hookstile.provider.control;

import org.junit.jupiter.api.Test;

import java.util.List;

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
        assertTrue(Providers.byName("svix").orElseThrow() instanceof StandardWebhooks);
        assertTrue(Providers.byName("standard-webhooks").orElseThrow() instanceof StandardWebhooks);
    }

    @Test
    void unknownProviderIsAbsent() {
        assertTrue(Providers.byName("paypal").isEmpty());
    }
}
