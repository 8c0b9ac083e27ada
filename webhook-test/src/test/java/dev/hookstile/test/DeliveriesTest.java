package dev.hookstile.test;

import com.stripe.exception.SignatureVerificationException;
import com.stripe.net.Webhook;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every provider's signature against its published example, or for Stripe against its official SDK. */
class DeliveriesTest {

    /** Test case 2 of RFC 4231 (SHA-256, SHA-512) and RFC 2202 (SHA-1). */
    private static final String RFC_KEY = "Jefe";
    private static final String RFC_DATA = "what do ya want for nothing?";
    private static final String RFC_SHA1 = "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79";
    private static final String RFC_SHA256 = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843";
    private static final String RFC_SHA512 = "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554"
            + "9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737";

    /** The test vector published with the Standard Webhooks specification (standard-webhooks/standard-webhooks). */
    private static final String SPEC_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final String SPEC_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    private static final Instant SPEC_TIME = Instant.ofEpochSecond(1614265330L);
    private static final String SPEC_PAYLOAD = "{\"test\": 2432232314}";
    private static final String SPEC_SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

    @Test
    void gitHubSignsItsPublishedExample() {
        // docs.github.com, "Validating webhook deliveries".
        var delivery = Deliveries.github("gh", "It's a Secret to Everybody", "72d3162e", "push", "Hello, World!");

        assertEquals("sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
                delivery.header("X-Hub-Signature-256"));
        assertEquals("72d3162e", delivery.header("X-GitHub-Delivery"));
        assertEquals("push", delivery.header("X-GitHub-Event"));
    }

    @Test
    void stripeSignsWhatTheOfficialSdkAccepts() throws SignatureVerificationException {
        String body = "{\"id\":\"evt_1\",\"object\":\"event\",\"type\":\"invoice.paid\",\"data\":{\"object\":{}}}";
        String secret = "whsec_test_3b2f0d9c1a7e4c55a1d2e3f4a5b6c7d8";

        var delivery = Deliveries.stripe("pay", secret, body);

        assertTrue(Webhook.Signature.verifyHeader(body, delivery.header("Stripe-Signature"), secret, 300));
        assertThrows(SignatureVerificationException.class,
                () -> Webhook.Signature.verifyHeader(body, delivery.header("Stripe-Signature"), "whsec_other", 300));
    }

    @Test
    void stripeSignsTheTimeItIsGiven() throws Exception {
        String body = "{\"id\":\"evt_2\"}";
        String secret = "whsec_test";
        Instant at = Instant.ofEpochSecond(1_735_689_600L);

        assertEquals("t=1735689600,v1=" + Webhook.Util.computeHmacSha256(secret, "1735689600." + body),
                Deliveries.stripe("pay", secret, body, at).header("Stripe-Signature"));
    }

    @Test
    void standardWebhooksSignsTheSpecificationsVector() {
        var delivery = Deliveries.standardWebhooks("it", SPEC_SECRET, SPEC_ID, SPEC_PAYLOAD, SPEC_TIME);

        assertEquals(SPEC_SIGNATURE, delivery.header("webhook-signature"));
        assertEquals(SPEC_ID, delivery.header("webhook-id"));
        assertEquals("1614265330", delivery.header("webhook-timestamp"));
    }

    /** The asymmetric ({@code v1a}) vector of the specification's libraries: the same message, an Ed25519 seed. */
    static final String SPEC_SIGNING_KEY = "whsk_VEVTVFNJR05JTkdLRVlET05PVFVTRVRISVNGT1JBTlk=";
    static final String SPEC_V1A_SIGNATURE = "v1a,tQ9V2XOqn7jL/DQenEFpqIugdBVtiMmER5mhSkXBNwM0mkATuDe6KYYUuxqtaiHeYGb7Ka"
            + "aBRdM5WqyeFiL8Ag==";

    @Test
    void standardWebhooksSignsTheSpecificationsAsymmetricVector() throws Exception {
        var delivery = Deliveries.standardWebhooksV1a("it", SPEC_SIGNING_KEY, SPEC_ID, SPEC_PAYLOAD, SPEC_TIME);

        assertEquals(SPEC_V1A_SIGNATURE, delivery.header("webhook-signature"));
        // The public key the kit derives verifies it, with the JDK alone: what a source given that key checks.
        String publicKey = Deliveries.publicKeyOf(SPEC_SIGNING_KEY);
        assertTrue(publicKey.startsWith("whpk_"));
        byte[] raw = java.util.Base64.getDecoder().decode(publicKey.substring(5));
        var verifier = java.security.Signature.getInstance("Ed25519");
        verifier.initVerify(java.security.KeyFactory.getInstance("Ed25519").generatePublic(
                new java.security.spec.X509EncodedKeySpec(java.util.HexFormat.of().parseHex(
                        "302a300506032b6570032100" + java.util.HexFormat.of().formatHex(raw)))));
        verifier.update((SPEC_ID + ".1614265330." + SPEC_PAYLOAD).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertTrue(verifier.verify(java.util.Base64.getDecoder().decode(SPEC_V1A_SIGNATURE.substring(4))));
    }

    @Test
    void svixSignsAsStandardWebhooksOnItsOwnHeaders() {
        var delivery = Deliveries.svix("svix", SPEC_SECRET, SPEC_ID, SPEC_PAYLOAD, SPEC_TIME);

        assertEquals(SPEC_SIGNATURE, delivery.header("svix-signature"));
        assertEquals(SPEC_ID, delivery.header("svix-id"));
    }

    @Test
    void slackSignsItsPublishedExample() {
        // api.slack.com/authentication/verifying-requests-from-slack, the worked example.
        String body = "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow"
                + "&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner"
                + "&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J"
                + "%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN"
                + "&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c";

        var delivery = Deliveries.slack("slack", "8f742231b10e8888abcd99yyyzzz85a5", body,
                Instant.ofEpochSecond(1531420618L));

        assertEquals("v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503",
                delivery.header("X-Slack-Signature"));
        assertEquals("1531420618", delivery.header("X-Slack-Request-Timestamp"));
    }

    @Test
    void twilioSignsItsPublishedExampleAndPostsTheFieldsFormEncoded() {
        // twilio.com/docs/usage/webhooks/webhooks-security, the worked example.
        var delivery = Deliveries.twilio("tw", "12345", "https://mycompany.com/myapp.php?foo=1&bar=2",
                Map.of("CallSid", "CA1234567890ABCDE", "Caller", "+12349013030", "Digits", "1234",
                        "From", "+12349013030", "To", "+18005551212"));

        assertEquals("0/KCTR6DLpKmkAf8muzZqo1nDgQ=", delivery.header("X-Twilio-Signature"));
        assertEquals("CallSid=CA1234567890ABCDE&Caller=%2B12349013030&Digits=1234&From=%2B12349013030"
                + "&To=%2B18005551212", delivery.bodyAsString());
    }

    @Test
    void shopifyAndMetaSignTheBodyAsTheRfcVectorSays() {
        assertEquals(Base64.getEncoder().encodeToString(HexFormat.of().parseHex(RFC_SHA256)),
                Deliveries.shopify("shop", RFC_KEY, "w-1", "orders/create", RFC_DATA).header("X-Shopify-Hmac-Sha256"));
        assertEquals("sha256=" + RFC_SHA256, Deliveries.meta("wa", RFC_KEY, RFC_DATA).header("X-Hub-Signature-256"));
    }

    @Test
    void hmacSignsAsItsSchemeSaysWithTheRfcVectors() {
        var ids = Map.of("X-Event-Id", "e-1");

        assertEquals(RFC_SHA256, Deliveries.hmac("in", HmacScheme.in("X-Signature"), RFC_KEY, ids, RFC_DATA)
                .header("X-Signature"));
        assertEquals("sha1=" + RFC_SHA1, Deliveries.hmac("in", HmacScheme.in("X-Sig").algorithm("sha1")
                .prefix("sha1="), RFC_KEY, ids, RFC_DATA).header("X-Sig"));
        assertEquals(Base64.getEncoder().encodeToString(HexFormat.of().parseHex(RFC_SHA512)),
                Deliveries.hmac("in", HmacScheme.in("X-Signature").algorithm("SHA512").base64(), RFC_KEY, ids,
                        RFC_DATA).header("X-Signature"));
        assertEquals("e-1", Deliveries.hmac("in", HmacScheme.in("X-Signature"), RFC_KEY, ids, RFC_DATA)
                .header("X-Event-Id"));
    }

    @Test
    void aRequestGoesToTheSourcesEndpointWithEveryHeader() {
        var delivery = Deliveries.github("gh", "s", "d-1", "push", "{}");

        var request = delivery.request(URI.create("http://localhost:8080")).build();

        assertEquals(URI.create("http://localhost:8080/webhooks/gh"), request.uri());
        assertEquals("POST", request.method());
        assertEquals("d-1", request.headers().firstValue("X-GitHub-Delivery").orElseThrow());
        assertEquals(delivery.header("X-Hub-Signature-256"),
                request.headers().firstValue("X-Hub-Signature-256").orElseThrow());
    }

    @Test
    void aChangedHeaderLeavesTheOriginalAsItWas() {
        var delivery = Deliveries.github("gh", "s", "d-1", "push", "{}");

        var replayed = delivery.withHeader("X-GitHub-Delivery", "d-2");

        assertEquals("d-2", replayed.header("X-GitHub-Delivery"));
        assertEquals("d-3", delivery.withHeader("x-github-delivery", "d-3").header("X-GitHub-Delivery"));
        assertEquals(delivery.headers().size(), delivery.withHeader("x-github-delivery", "d-3").headers().size());
        assertEquals("d-1", delivery.header("X-GitHub-Delivery"));
        assertEquals(delivery.header("X-Hub-Signature-256"), replayed.header("X-Hub-Signature-256"));
    }
}
