package dev.hookstile.source.control;

import dev.hookstile.source.Delivery;
import dev.hookstile.source.RejectedDelivery;
import dev.hookstile.source.Rejection;
import dev.hookstile.source.VerifiedDelivery;
import dev.hookstile.source.Source;
import dev.hookstile.source.SourceBuilder;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ShopifyTest {

    /*
     * Shopify's docs describe the algorithm (base64 HMAC-SHA256 of the raw body, keyed with the client secret) but
     * publish no worked example with a secret, body and header, so this vector was computed independently of our
     * code: printf '%s' "$BODY" | openssl dgst -sha256 -hmac "$SECRET" -binary | base64
     * The body has non-ASCII characters so that it also pins hashing the raw UTF-8 bytes.
     */
    private static final String SECRET = "shpss_hookstile_test_secret";
    private static final String BODY =
            "{\"id\":820982911946154508,\"email\":\"jon@example.com\",\"note\":\"Caf\u00e9 \u2013 5 \u20ac\"}";
    private static final String SIGNATURE = "9R9MHqvIvBqdibD4EVERQKn4vNdmgDJC7qbKZa3Dj5c=";
    private static final String WEBHOOK_ID = "b54557e4-bdd9-4b37-8a5f-bf7d70bcd043";
    private static final String EVENT_ID = "98880550-7158-44d4-b7cd-2c97c8a091b5";

    private static Source source(Shopify shopify, String... secrets) {
        List<byte[]> keys = Arrays.stream(secrets).map(shopify::decodeSecret).toList();
        return SourceBuilder.source("shop", shopify).secrets(keys).tolerance(Duration.ofSeconds(300)).build();
    }

    private static Map<String, String> headers(String signature) {
        var headers = new HashMap<String, String>();
        headers.put("X-Shopify-Hmac-Sha256", signature);
        headers.put("X-Shopify-Topic", "orders/create");
        headers.put("X-Shopify-Shop-Domain", "example.myshopify.com");
        headers.put("X-Shopify-Webhook-Id", WEBHOOK_ID);
        headers.put("X-Shopify-Event-Id", EVENT_ID);
        headers.put("X-Shopify-Triggered-At", "2025-01-01T00:00:00.000000000Z");
        headers.put("X-Shopify-API-Version", "2025-01");
        headers.put("Content-Type", "application/json");
        return headers;
    }

    private static Delivery delivery(Map<String, String> headers, String body) {
        var lookup = new TreeMap<String, String>(String.CASE_INSENSITIVE_ORDER);
        lookup.putAll(headers);
        return new Delivery(lookup::get, body.getBytes(StandardCharsets.UTF_8), Instant.now());
    }

    /** With javax.crypto directly rather than our Hmac, so that the tests do not check our code against itself. */
    private static String sign(String secret, String body) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return Base64.getEncoder().encodeToString(mac.doFinal(body.getBytes(StandardCharsets.UTF_8)));
    }

    private static Rejection rejection(Shopify shopify, Delivery delivery, Source source) {
        return assertThrows(RejectedDelivery.class, () -> shopify.verify(delivery, source)).reason();
    }

    @Test
    void acceptsTheIndependentlyComputedVector() throws RejectedDelivery {
        var shopify = new Shopify();

        VerifiedDelivery verified = shopify.verify(delivery(headers(SIGNATURE), BODY), source(shopify, SECRET));

        assertEquals(WEBHOOK_ID, verified.eventId());
        assertEquals("orders/create", verified.type());
    }

    @Test
    void javaxCryptoAgreesWithTheVector() throws Exception {
        assertEquals(SIGNATURE, sign(SECRET, BODY));
    }

    @Test
    void acceptsABodySignedWithJavaxCrypto() throws Exception {
        var shopify = new Shopify();
        String body = "{\"id\":1,\"title\":\"Snowboard\"}";

        assertEquals(WEBHOOK_ID,
                shopify.verify(delivery(headers(sign(SECRET, body)), body), source(shopify, SECRET)).eventId());
    }

    @Test
    void fallsBackToTheEventIdWithoutAWebhookId() throws RejectedDelivery {
        var shopify = new Shopify();
        var headers = headers(SIGNATURE);
        headers.remove("X-Shopify-Webhook-Id");

        assertEquals(EVENT_ID, shopify.verify(delivery(headers, BODY), source(shopify, SECRET)).eventId());
    }

    @Test
    void fallsBackToTheEventIdWhenTheWebhookIdIsEmpty() throws RejectedDelivery {
        var shopify = new Shopify();
        var headers = headers(SIGNATURE);
        headers.put("X-Shopify-Webhook-Id", "");

        assertEquals(EVENT_ID, shopify.verify(delivery(headers, BODY), source(shopify, SECRET)).eventId());
    }

    @Test
    void rejectsMissingWebhookAndEventId() {
        var shopify = new Shopify();
        var headers = headers(SIGNATURE);
        headers.remove("X-Shopify-Webhook-Id");
        headers.remove("X-Shopify-Event-Id");

        assertEquals(Rejection.MISSING_EVENT_ID, rejection(shopify, delivery(headers, BODY), source(shopify, SECRET)));
    }

    @Test
    void givesAnEmptyTypeWhenTheTopicHeaderIsMissing() throws RejectedDelivery {
        var shopify = new Shopify();
        var headers = headers(SIGNATURE);
        headers.remove("X-Shopify-Topic");

        assertEquals("", shopify.verify(delivery(headers, BODY), source(shopify, SECRET)).type());
    }

    @Test
    void retainsShopifysHeadersLowerCasedWithTheSignatureRedacted() throws RejectedDelivery {
        var shopify = new Shopify();
        var headers = headers(SIGNATURE);
        headers.put("User-Agent", "Shopify-Captain-Hook");
        headers.put("Authorization", "Bearer not-to-be-kept");

        Map<String, String> kept = shopify.verify(delivery(headers, BODY), source(shopify, SECRET)).headers();

        assertEquals("[redacted]", kept.get("x-shopify-hmac-sha256"));
        assertEquals("orders/create", kept.get("x-shopify-topic"));
        assertEquals("example.myshopify.com", kept.get("x-shopify-shop-domain"));
        assertEquals(WEBHOOK_ID, kept.get("x-shopify-webhook-id"));
        assertEquals(EVENT_ID, kept.get("x-shopify-event-id"));
        assertEquals("2025-01-01T00:00:00.000000000Z", kept.get("x-shopify-triggered-at"));
        assertEquals("2025-01", kept.get("x-shopify-api-version"));
        assertEquals("application/json", kept.get("content-type"));
        assertEquals("Shopify-Captain-Hook", kept.get("user-agent"));
        assertFalse(kept.containsKey("authorization"));
        assertFalse(kept.values().stream().anyMatch(v -> v.contains(SIGNATURE.substring(0, 12))));
    }

    @Test
    void acceptsSignatureByTheSecondConfiguredSecret() throws RejectedDelivery {
        var shopify = new Shopify();

        assertEquals(WEBHOOK_ID, shopify.verify(delivery(headers(SIGNATURE), BODY),
                source(shopify, "shpss_previous_secret", SECRET)).eventId());
    }

    @Test
    void acceptsSignatureByTheFirstConfiguredSecret() throws RejectedDelivery {
        var shopify = new Shopify();

        assertEquals(WEBHOOK_ID, shopify.verify(delivery(headers(SIGNATURE), BODY),
                source(shopify, SECRET, "shpss_next_secret")).eventId());
    }

    @Test
    void rejectsSignatureMadeWithAnotherSecret() {
        var shopify = new Shopify();

        assertEquals(Rejection.INVALID_SIGNATURE, rejection(shopify, delivery(headers(SIGNATURE), BODY),
                source(shopify, "shpss_hookstile_test_secreT", "shpss_other")));
    }

    @Test
    void rejectsBodyWithOneByteChanged() {
        var shopify = new Shopify();

        assertEquals(Rejection.INVALID_SIGNATURE, rejection(shopify,
                delivery(headers(SIGNATURE), BODY.replace("820982911946154508", "820982911946154509")),
                source(shopify, SECRET)));
    }

    @Test
    void rejectsBodyWithTrailingNewlineAdded() {
        var shopify = new Shopify();

        assertEquals(Rejection.INVALID_SIGNATURE,
                rejection(shopify, delivery(headers(SIGNATURE), BODY + "\n"), source(shopify, SECRET)));
    }

    @Test
    void rejectsSignatureWithOneCharacterChanged() {
        var shopify = new Shopify();
        String changed = "8" + SIGNATURE.substring(1);

        assertEquals(Rejection.INVALID_SIGNATURE,
                rejection(shopify, delivery(headers(changed), BODY), source(shopify, SECRET)));
    }

    @Test
    void checksTheSignatureBeforeTheIds() {
        var shopify = new Shopify();
        var headers = headers(SIGNATURE);
        headers.remove("X-Shopify-Webhook-Id");
        headers.remove("X-Shopify-Event-Id");

        assertEquals(Rejection.INVALID_SIGNATURE,
                rejection(shopify, delivery(headers, "{\"forged\":true}"), source(shopify, SECRET)));
    }

    @Test
    void rejectsMissingSignatureHeader() {
        var shopify = new Shopify();
        var headers = headers(SIGNATURE);
        headers.remove("X-Shopify-Hmac-Sha256");

        assertEquals(Rejection.MISSING_SIGNATURE, rejection(shopify, delivery(headers, BODY), source(shopify, SECRET)));
    }

    @Test
    void rejectsSignatureThatIsNotBase64() {
        var shopify = new Shopify();

        assertEquals(Rejection.MALFORMED_SIGNATURE, rejection(shopify,
                delivery(headers("9R9MHqvIvBqd*bD4EVERQKn4vNdmgDJC7qbKZa3Dj5c="), BODY), source(shopify, SECRET)));
    }

    @Test
    void rejectsTheSameMacHexEncoded() {
        var shopify = new Shopify();
        String hex = HexFormat.of().formatHex(Base64.getDecoder().decode(SIGNATURE));

        assertEquals(Rejection.MALFORMED_SIGNATURE,
                rejection(shopify, delivery(headers(hex), BODY), source(shopify, SECRET)));
    }

    @Test
    void rejectsSignatureThatIsTooShort() {
        var shopify = new Shopify();
        String sha1Sized = Base64.getEncoder().encodeToString(Arrays.copyOf(Base64.getDecoder().decode(SIGNATURE), 20));

        assertEquals(Rejection.MALFORMED_SIGNATURE,
                rejection(shopify, delivery(headers(sha1Sized), BODY), source(shopify, SECRET)));
    }

    @Test
    void rejectsSignatureThatIsTooLong() {
        var shopify = new Shopify();
        String tooLong = Base64.getEncoder().encodeToString(Arrays.copyOf(Base64.getDecoder().decode(SIGNATURE), 33));

        assertEquals(Rejection.MALFORMED_SIGNATURE,
                rejection(shopify, delivery(headers(tooLong), BODY), source(shopify, SECRET)));
    }

    @Test
    void rejectsEmptySignature() {
        var shopify = new Shopify();

        assertEquals(Rejection.MALFORMED_SIGNATURE,
                rejection(shopify, delivery(headers(""), BODY), source(shopify, SECRET)));
    }
}
