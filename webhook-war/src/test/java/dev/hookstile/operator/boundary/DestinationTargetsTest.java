package dev.hookstile.operator.boundary;

import dev.hookstile.outbox.boundary.Breakers;
import dev.hookstile.outbox.boundary.Forwardings;
import dev.hookstile.source.Destination;
import dev.hookstile.source.Source;
import dev.hookstile.source.boundary.Providers;
import dev.hookstile.source.boundary.Sources;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * {@code /api/sources} and {@code /api/destinations} (what the console shows) name a destination by its scheme, host
 * and port: a destination's path may be its secret, as a chat's incoming webhook's is.
 */
class DestinationTargetsTest {

    private static final String URL = "https://relay:pa55@hooks.example.com:8443/services/T0/B0/s3cretpath?token=t";

    /**
     * Through the record's one constructor: webhook-ejb's test-data builder is not on this module's class path (no
     * test-jar: ArchitectureTest would import its classes as the application's).
     */
    private static Source forwarding() {
        return new Source("fwd", Providers.byName("standard-webhooks").orElseThrow(), List.of(new byte[32]),
                Duration.ofSeconds(300), Map.of(), 8, 2, Duration.ZERO, Duration.ofDays(30),
                new Destination(URI.create(URL), new byte[32], List.of("invoice.*")), null, null);
    }

    @Test
    void aSourceShowsItsDestinationAsSchemeHostAndPort() {
        List<SourcesResource.DestinationView> views = SourcesResource.DestinationView.of(forwarding());

        assertEquals("https://hooks.example.com:8443", views.get(0).target());
        assertEquals(List.of("invoice.*"), views.get(0).types());
    }

    @Test
    void theDestinationsListingShowsSchemeHostAndPort() {
        var resource = new DestinationsResource();
        resource.sources = new Sources() {
            @Override
            public List<Source> all() {
                return List.of(forwarding());
            }
        };
        resource.breakers = new Breakers();
        resource.forwardings = new Forwardings() {
            @Override
            public long count(String source, String destination, String status, int limit) {
                return 0;
            }

            @Override
            public java.util.Map<List<String>, java.time.Instant> paused() {
                return java.util.Map.of();
            }
        };

        List<DestinationsResource.View> views = resource.views();

        assertEquals("https://hooks.example.com:8443", views.get(0).target());
        assertFalse(views.toString().contains("s3cret"), views.toString());
    }
}
