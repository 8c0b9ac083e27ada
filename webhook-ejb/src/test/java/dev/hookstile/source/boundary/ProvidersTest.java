package dev.hookstile.source.boundary;

import dev.hookstile.source.Provider;

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
        Provider svix = Providers.byName("svix").orElseThrow();
        Provider standard = Providers.byName("standard-webhooks").orElseThrow();

        assertEquals(standard.getClass(), svix.getClass());
        assertTrue(svix != standard, "two configurations, two instances");
    }

    @Test
    void unknownProviderIsAbsent() {
        assertTrue(Providers.byName("paypal").isEmpty());
    }
}
