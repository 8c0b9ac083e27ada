package dev.hookstile.operator.boundary;

import dev.hookstile.source.Source;
import dev.hookstile.source.boundary.Providers;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What the operator API says so the console need not know it (issue 38): a source's signing scheme from its provider,
 * and an event's headers with the server's one rule for secret-looking values applied.
 */
class EventAnswersTest {

    @Test
    void aSourceDescriptionCarriesItsProvidersSigningScheme() {
        Source source = new Source("pay", Providers.byName("stripe").orElseThrow(), List.of(new byte[32]),
                Duration.ofSeconds(300), Map.of(), 8, 2, Duration.ZERO, Source.DEFAULT_RETENTION, null, null, null);

        SourcesResource.View view = SourcesResource.View.of(source, Set.of(), Map.of());

        assertEquals("stripe", view.provider());
        assertEquals("HMAC-SHA256 of \u201ctimestamp.body\u201d (Stripe-Signature)", view.signingScheme());
    }

    @Test
    void anEventsSecretLookingHeadersAreWithheldAndTheOthersShownAsStored() {
        JsonObject shown = EventsResource.Detail.shownHeaders("""
                {"x-github-event":"push","x-hub-signature-256":"[redacted]","i-twilio-idempotency-token":"t-1",
                 "x-api-key":"k","authorization":"Bearer b","content-type":"application/json"}""");

        assertEquals(Map.of("x-github-event", "push", "x-hub-signature-256", "[redacted]",
                "i-twilio-idempotency-token", "[redacted]", "x-api-key", "[redacted]",
                "authorization", "[redacted]", "content-type", "application/json"),
                shown.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey,
                        e -> ((JsonString) e.getValue()).getString())));
        assertEquals(List.of("x-github-event", "x-hub-signature-256", "i-twilio-idempotency-token", "x-api-key",
                "authorization", "content-type"), List.copyOf(shown.keySet()), "the stored order kept");
    }
}
