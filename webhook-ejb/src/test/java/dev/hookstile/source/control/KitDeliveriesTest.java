package dev.hookstile.source.control;

import dev.hookstile.source.Delivery;
import dev.hookstile.source.Provider;
import dev.hookstile.source.RejectedDelivery;
import dev.hookstile.source.Rejection;
import dev.hookstile.source.VerifiedDelivery;
import dev.hookstile.source.SourceBuilder;
import dev.hookstile.test.Deliveries;
import dev.hookstile.test.HmacScheme;
import dev.hookstile.test.SignedDelivery;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The test kit handler authors use ({@code webhook-test}) signs what Hookstile's providers accept, for every
 * provider: a kit that drifted from the verification would fail their tests, not ours.
 */
class KitDeliveriesTest {

    private static final String SECRET = "kit-secret-0123456789abcdef";
    private static final String WHSEC = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

    private static VerifiedDelivery verify(Provider provider, String secret, Map<String, String> settings,
                                           SignedDelivery signed, String url) throws Exception {
        var source = SourceBuilder.source(signed.source(), provider)
                .secrets(List.of(provider.decodeSecret(secret))).tolerance(Duration.ofSeconds(300)).settings(settings)
                .build();
        var headers = new TreeMap<String, String>(String.CASE_INSENSITIVE_ORDER);
        headers.putAll(signed.headers());
        return provider.verify(new Delivery(headers::get, signed.body(), Instant.now(), url), source);
    }

    private static VerifiedDelivery verify(Provider provider, String secret, SignedDelivery signed) throws Exception {
        return verify(provider, secret, Map.of(), signed, null);
    }

    @Test
    void gitHub() throws Exception {
        var verified = verify(new GitHub(), SECRET, Deliveries.github("gh", SECRET, "d-1", "push", "{\"ref\":\"x\"}"));

        assertEquals("d-1", verified.eventId());
        assertEquals("push", verified.type());
    }

    @Test
    void stripe() throws Exception {
        String body = "{\"id\":\"evt_1\",\"object\":\"event\",\"type\":\"invoice.paid\",\"data\":{\"object\":{}}}";

        var verified = verify(new Stripe(), "whsec_test_kit", Deliveries.stripe("pay", "whsec_test_kit", body));

        assertEquals("evt_1", verified.eventId());
        assertEquals("invoice.paid", verified.type());
    }

    @Test
    void standardWebhooksAndSvix() throws Exception {
        assertEquals("msg_1", verify(new StandardWebhooks(), WHSEC,
                Deliveries.standardWebhooks("it", WHSEC, "msg_1", "{\"type\":\"user.created\"}")).eventId());
        assertEquals("msg_2", verify(new StandardWebhooks("svix", "svix-"), WHSEC,
                Deliveries.svix("svix", WHSEC, "msg_2", "{\"type\":\"user.created\"}")).eventId());
    }

    @Test
    void shopify() throws Exception {
        var verified = verify(new Shopify(), SECRET,
                Deliveries.shopify("shop", SECRET, "w-1", "orders/create", "{\"id\":820982911946154508}"));

        assertEquals("w-1", verified.eventId());
        assertEquals("orders/create", verified.type());
    }

    @Test
    void slack() throws Exception {
        String event = "{\"token\":\"XXYYZZ\",\"team_id\":\"T123ABC456\",\"api_app_id\":\"A123ABC456\","
                + "\"event\":{\"type\":\"app_mention\",\"user\":\"U123ABC456\",\"text\":\"hi\","
                + "\"event_ts\":\"1735689600.000100\"},\"type\":\"event_callback\",\"event_id\":\"Ev08MFMKH6\","
                + "\"event_time\":1735689600}";

        assertEquals("Ev08MFMKH6", verify(new Slack(), SECRET, Deliveries.slack("slack", SECRET, event)).eventId());
    }

    @Test
    void twilio() throws Exception {
        String publicUrl = "https://hooks.example.test/webhooks/tw";
        var signed = Deliveries.twilio("tw", SECRET, publicUrl,
                Map.of("MessageSid", "SM123", "From", "+15551234567", "Body", "Caf\u00e9 & more"));

        var verified = verify(new Twilio(), SECRET, Map.of("public-url", publicUrl), signed,
                "http://10.0.0.7:8080/webhooks/tw");

        assertEquals("SM123", verified.eventId());
    }

    @Test
    void hmacAsConfigured() throws Exception {
        var settings = Map.of("signature-header", "X-Signature", "algorithm", "sha512", "encoding", "base64",
                "signature-prefix", "sha512=", "event-id-header", "X-Event-Id");
        var signed = Deliveries.hmac("inhouse", HmacScheme.in("X-Signature").algorithm("sha512").base64()
                .prefix("sha512="), SECRET, Map.of("X-Event-Id", "e-1"), "{\"order\":7}");

        assertEquals("e-1", verify(new ConfiguredHmac(), SECRET, settings, signed, null).eventId());
    }

    @Test
    void meta() throws Exception {
        String page = "{\"object\":\"page\",\"entry\":[{\"id\":\"109876543210987\",\"time\":"
                + Instant.now().toEpochMilli() + ",\"messaging\":[{\"sender\":{\"id\":\"1\"},"
                + "\"recipient\":{\"id\":\"2\"},\"message\":{\"mid\":\"m_kit\",\"text\":\"hi\"}}]}]}";

        var verified = verify(new Meta(), SECRET, Deliveries.meta("wa", SECRET, page));

        assertEquals(List.of("m_kit"), verified.events().stream().map(VerifiedDelivery.EventIdentity::id).toList());
    }

    @Test
    void aKitDeliveryWithAnotherSecretIsRefusedForItsSignature() {
        var refused = assertThrows(RejectedDelivery.class, () -> verify(new GitHub(), "another secret",
                Deliveries.github("gh", SECRET, "d-1", "push", "{}")));

        assertEquals(Rejection.INVALID_SIGNATURE, refused.reason());
    }
}
