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
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SvixTest {

    /** The example in Svix's "How to Verify Webhooks with the Svix Libraries" (docs.svix.com). */
    private static final String DOCS_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final String DOCS_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    private static final String DOCS_TIMESTAMP = "1614265330";
    private static final String DOCS_PAYLOAD = "{\"test\": 2432232314}";
    private static final String DOCS_SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";
    private static final Instant DOCS_NOW = Instant.ofEpochSecond(1614265330L);

    private static StandardWebhooks svix() {
        return new StandardWebhooks("svix", "svix-");
    }

    private static Source source(StandardWebhooks provider, String... secrets) {
        List<byte[]> keys = Arrays.stream(secrets).map(provider::decodeSecret).toList();
        return SourceBuilder.source("clerk", provider).secrets(keys).tolerance(Duration.ofSeconds(300)).build();
    }

    private static Map<String, String> docsHeaders() {
        var headers = new HashMap<String, String>();
        headers.put("svix-id", DOCS_ID);
        headers.put("svix-timestamp", DOCS_TIMESTAMP);
        headers.put("svix-signature", DOCS_SIGNATURE);
        return headers;
    }

    private static Delivery delivery(Map<String, String> headers, String body, Instant receivedAt) {
        var lookup = new TreeMap<String, String>(String.CASE_INSENSITIVE_ORDER);
        lookup.putAll(headers);
        return new Delivery(lookup::get, body.getBytes(StandardCharsets.UTF_8), receivedAt);
    }

    /** With javax.crypto directly rather than our Hmac, so that the tests do not check our code against itself. */
    private static String sign(String secret, String id, String timestamp, String body) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(Base64.getDecoder().decode(secret.substring("whsec_".length())), "HmacSHA256"));
        byte[] signed = mac.doFinal((id + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8));
        return "v1," + Base64.getEncoder().encodeToString(signed);
    }

    private static String secret(String seed) {
        return "whsec_" + Base64.getEncoder().encodeToString(seed.getBytes(StandardCharsets.US_ASCII));
    }

    private static Rejection rejection(StandardWebhooks provider, Delivery delivery, Source source) {
        return assertThrows(RejectedDelivery.class, () -> provider.verify(delivery, source)).reason();
    }

    @Test
    void isNamedSvix() {
        assertEquals("svix", svix().name());
    }

    @Test
    void acceptsSvixsPublishedExample() throws RejectedDelivery {
        var svix = svix();

        VerifiedDelivery verified = svix.verify(delivery(docsHeaders(), DOCS_PAYLOAD, DOCS_NOW),
                source(svix, DOCS_SECRET));

        assertEquals(DOCS_ID, verified.eventId());
        assertEquals("", verified.type());
    }

    @Test
    void javaxCryptoAgreesWithSvixsPublishedExample() throws Exception {
        assertEquals(DOCS_SIGNATURE, sign(DOCS_SECRET, DOCS_ID, DOCS_TIMESTAMP, DOCS_PAYLOAD));
    }

    @Test
    void ignoresTheStandardWebhookHeaders() {
        var svix = svix();
        var headers = new HashMap<String, String>();
        headers.put("webhook-id", DOCS_ID);
        headers.put("webhook-timestamp", DOCS_TIMESTAMP);
        headers.put("webhook-signature", DOCS_SIGNATURE);

        assertEquals(Rejection.MISSING_SIGNATURE,
                rejection(svix, delivery(headers, DOCS_PAYLOAD, DOCS_NOW), source(svix, DOCS_SECRET)));
    }

    @Test
    void leavesTheStandardWebhooksProviderOnItsOwnHeaders() {
        var standard = new StandardWebhooks();

        assertEquals(Rejection.MISSING_SIGNATURE, rejection(standard,
                delivery(docsHeaders(), DOCS_PAYLOAD, DOCS_NOW), source(standard, DOCS_SECRET)));
    }

    @Test
    void acceptsSecretWithoutTheWhsecPrefix() throws RejectedDelivery {
        var svix = svix();

        assertEquals(DOCS_ID, svix.verify(delivery(docsHeaders(), DOCS_PAYLOAD, DOCS_NOW),
                source(svix, DOCS_SECRET.substring("whsec_".length()))).eventId());
    }

    @Test
    void extractsTheTopLevelTypeFromTheJsonBody() throws Exception {
        var svix = svix();
        String body = "{\"data\":{\"id\":\"user_29w83sxmDNGwOuEthce5gg56FcC\",\"type\":\"nested\"},"
                + "\"object\":\"event\",\"type\":\"user.created\"}";
        var headers = docsHeaders();
        headers.put("svix-signature", sign(DOCS_SECRET, DOCS_ID, DOCS_TIMESTAMP, body));

        assertEquals("user.created",
                svix.verify(delivery(headers, body, DOCS_NOW), source(svix, DOCS_SECRET)).type());
    }

    @Test
    void retainsSvixsHeadersLowerCasedWithTheSignatureRedacted() throws RejectedDelivery {
        var svix = svix();
        var headers = docsHeaders();
        headers.put("Content-Type", "application/json");
        headers.put("User-Agent", "Svix-Webhooks/1.0");
        headers.put("Authorization", "Bearer not-to-be-kept");

        Map<String, String> kept = svix.verify(delivery(headers, DOCS_PAYLOAD, DOCS_NOW),
                source(svix, DOCS_SECRET)).headers();

        assertEquals("[redacted]", kept.get("svix-signature"));
        assertEquals(DOCS_ID, kept.get("svix-id"));
        assertEquals(DOCS_TIMESTAMP, kept.get("svix-timestamp"));
        assertEquals("application/json", kept.get("content-type"));
        assertEquals("Svix-Webhooks/1.0", kept.get("user-agent"));
        assertFalse(kept.containsKey("authorization"));
        assertFalse(kept.values().stream().anyMatch(v -> v.contains("g0hM9SsE")));
    }

    @Test
    void acceptsWhenOneOfSeveralSpaceSeparatedSignaturesMatches() throws Exception {
        var svix = svix();
        var headers = docsHeaders();
        String other = sign(secret("another-secret-of-24-byt"), DOCS_ID, DOCS_TIMESTAMP, DOCS_PAYLOAD);
        headers.put("svix-signature", other + " " + DOCS_SIGNATURE);

        assertEquals(DOCS_ID,
                svix.verify(delivery(headers, DOCS_PAYLOAD, DOCS_NOW), source(svix, DOCS_SECRET)).eventId());
    }

    @Test
    void acceptsSignatureByTheSecondConfiguredSecret() throws RejectedDelivery {
        var svix = svix();

        assertEquals(DOCS_ID, svix.verify(delivery(docsHeaders(), DOCS_PAYLOAD, DOCS_NOW),
                source(svix, secret("previous-secret-24-bytes"), DOCS_SECRET)).eventId());
    }

    @Test
    void rejectsSignatureMadeWithAnotherSecret() {
        var svix = svix();

        assertEquals(Rejection.INVALID_SIGNATURE, rejection(svix, delivery(docsHeaders(), DOCS_PAYLOAD, DOCS_NOW),
                source(svix, secret("another-secret-of-24-byt"))));
    }

    @Test
    void rejectsBodyWithOneByteChanged() {
        var svix = svix();

        assertEquals(Rejection.INVALID_SIGNATURE, rejection(svix,
                delivery(docsHeaders(), "{\"test\": 2432232315}", DOCS_NOW), source(svix, DOCS_SECRET)));
    }

    @Test
    void rejectsSignatureWithOneCharacterChanged() {
        var svix = svix();
        var headers = docsHeaders();
        headers.put("svix-signature", DOCS_SIGNATURE.replace("g0hM", "g0hN"));

        assertEquals(Rejection.INVALID_SIGNATURE,
                rejection(svix, delivery(headers, DOCS_PAYLOAD, DOCS_NOW), source(svix, DOCS_SECRET)));
    }

    @Test
    void rejectsIdChangedAfterSigning() {
        var svix = svix();
        var headers = docsHeaders();
        headers.put("svix-id", "msg_p5jXN8AQM9LWM0D4loKWxJeK");

        assertEquals(Rejection.INVALID_SIGNATURE,
                rejection(svix, delivery(headers, DOCS_PAYLOAD, DOCS_NOW), source(svix, DOCS_SECRET)));
    }

    @Test
    void rejectsTimestampChangedAfterSigning() {
        var svix = svix();
        var headers = docsHeaders();
        headers.put("svix-timestamp", "1614265331");

        assertEquals(Rejection.INVALID_SIGNATURE,
                rejection(svix, delivery(headers, DOCS_PAYLOAD, DOCS_NOW), source(svix, DOCS_SECRET)));
    }

    @Test
    void rejectsMissingSignatureHeader() {
        var svix = svix();
        var headers = docsHeaders();
        headers.remove("svix-signature");

        assertEquals(Rejection.MISSING_SIGNATURE,
                rejection(svix, delivery(headers, DOCS_PAYLOAD, DOCS_NOW), source(svix, DOCS_SECRET)));
    }

    @Test
    void rejectsSignatureHeaderWithNoV1Entry() {
        var svix = svix();
        var headers = docsHeaders();
        headers.put("svix-signature", DOCS_SIGNATURE.replace("v1,", "v2,"));

        assertEquals(Rejection.MALFORMED_SIGNATURE,
                rejection(svix, delivery(headers, DOCS_PAYLOAD, DOCS_NOW), source(svix, DOCS_SECRET)));
    }

    @Test
    void rejectsSignatureThatIsBareBase64WithoutVersion() {
        var svix = svix();
        var headers = docsHeaders();
        headers.put("svix-signature", DOCS_SIGNATURE.substring("v1,".length()));

        assertEquals(Rejection.MALFORMED_SIGNATURE,
                rejection(svix, delivery(headers, DOCS_PAYLOAD, DOCS_NOW), source(svix, DOCS_SECRET)));
    }

    @Test
    void rejectsMissingId() {
        var svix = svix();
        var headers = docsHeaders();
        headers.remove("svix-id");

        assertEquals(Rejection.MISSING_EVENT_ID,
                rejection(svix, delivery(headers, DOCS_PAYLOAD, DOCS_NOW), source(svix, DOCS_SECRET)));
    }

    @Test
    void rejectsMissingTimestamp() {
        var svix = svix();
        var headers = docsHeaders();
        headers.remove("svix-timestamp");

        assertEquals(Rejection.INVALID_TIMESTAMP,
                rejection(svix, delivery(headers, DOCS_PAYLOAD, DOCS_NOW), source(svix, DOCS_SECRET)));
    }

    @Test
    void rejectsNonNumericTimestamp() {
        var svix = svix();
        var headers = docsHeaders();
        headers.put("svix-timestamp", "2021-02-25T15:02:10Z");

        assertEquals(Rejection.INVALID_TIMESTAMP,
                rejection(svix, delivery(headers, DOCS_PAYLOAD, DOCS_NOW), source(svix, DOCS_SECRET)));
    }

    @Test
    void rejectsTimestamp301SecondsOld() {
        var svix = svix();

        assertEquals(Rejection.TIMESTAMP_OUT_OF_TOLERANCE, rejection(svix,
                delivery(docsHeaders(), DOCS_PAYLOAD, DOCS_NOW.plusSeconds(301)), source(svix, DOCS_SECRET)));
    }

    @Test
    void rejectsTimestamp301SecondsInTheFuture() {
        var svix = svix();

        assertEquals(Rejection.TIMESTAMP_OUT_OF_TOLERANCE, rejection(svix,
                delivery(docsHeaders(), DOCS_PAYLOAD, DOCS_NOW.minusSeconds(301)), source(svix, DOCS_SECRET)));
    }

    @Test
    void acceptsTimestampExactlyAtTheTolerance() throws RejectedDelivery {
        var svix = svix();

        assertEquals(DOCS_ID, svix.verify(delivery(docsHeaders(), DOCS_PAYLOAD, DOCS_NOW.minusSeconds(300)),
                source(svix, DOCS_SECRET)).eventId());
    }

    @Test
    void rejectsSignedBodyThatIsNotAJsonObject() throws Exception {
        var svix = svix();
        String body = "[1,2,3]";
        var headers = docsHeaders();
        headers.put("svix-signature", sign(DOCS_SECRET, DOCS_ID, DOCS_TIMESTAMP, body));

        assertEquals(Rejection.INVALID_PAYLOAD,
                rejection(svix, delivery(headers, body, DOCS_NOW), source(svix, DOCS_SECRET)));
    }
}
