package dev.hookstile.source.control;

import com.stripe.exception.SignatureVerificationException;
import com.stripe.net.Webhook;
import dev.hookstile.source.Delivery;
import dev.hookstile.source.boundary.Providers;
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
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StripeTest {

    private static final String SECRET = "whsec_test_3b2f0d9c1a7e4c55a1d2e3f4a5b6c7d8";
    private static final long SIGNED_AT = 1_735_689_600L; // 2025-01-01T00:00:00Z

    private static String event(String id, String type) {
        return "{\n  \"id\": \"" + id + "\",\n  \"object\": \"event\",\n  \"type\": \"" + type + "\",\n"
                + "  \"data\": {\"object\": {\"id\": \"in_1\", \"description\": \"Caf\u00e9 \u20ac5\"}}\n}";
    }

    private static Source source(Stripe stripe, String... secrets) {
        List<byte[]> keys = Arrays.stream(secrets).map(stripe::decodeSecret).toList();
        return SourceBuilder.source("billing", stripe).secrets(keys).tolerance(Duration.ofSeconds(300)).build();
    }

    private static Delivery delivery(String signatureHeader, String body, Instant receivedAt) {
        var headers = new TreeMap<String, String>(String.CASE_INSENSITIVE_ORDER);
        if (signatureHeader != null) {
            headers.put("Stripe-Signature", signatureHeader);
        }
        headers.put("Content-Type", "application/json; charset=utf-8");
        return new Delivery(headers::get, body.getBytes(StandardCharsets.UTF_8), receivedAt);
    }

    /** The header the official SDK's own HMAC produces for this body. */
    private static String sdkSignature(String secret, long timestamp, String body) throws Exception {
        return Webhook.Util.computeHmacSha256(secret, timestamp + "." + body);
    }

    private static String ourHeader(String secret, long timestamp, String body) {
        return Stripe.sign(secret.getBytes(StandardCharsets.UTF_8), timestamp, body.getBytes(StandardCharsets.UTF_8));
    }

    private static Rejection rejection(Stripe stripe, Delivery delivery, Source source) {
        return assertThrows(RejectedDelivery.class, () -> stripe.verify(delivery, source)).reason();
    }

    @Test
    void acceptsHeaderSignedWithTheOfficialSdksHmac() throws Exception {
        var stripe = new Stripe();
        String body = event("evt_1NG8Du2eZvKYlo2CUI79vXWy", "invoice.paid");
        String header = "t=" + SIGNED_AT + ",v1=" + sdkSignature(SECRET, SIGNED_AT, body);

        VerifiedDelivery verified = stripe.verify(delivery(header, body, Instant.ofEpochSecond(SIGNED_AT + 5)),
                source(stripe, SECRET));

        assertEquals("evt_1NG8Du2eZvKYlo2CUI79vXWy", verified.eventId());
        assertEquals("invoice.paid", verified.type());
    }

    @Test
    void producesHeadersTheOfficialSdkAccepts() throws SignatureVerificationException {
        String body = event("evt_reverse", "customer.created");
        long now = Instant.now().getEpochSecond();

        String header = ourHeader(SECRET, now, body);

        assertTrue(Webhook.Signature.verifyHeader(body, header, SECRET, 300));
    }

    @Test
    void producesTheSameSignatureAsTheOfficialSdk() throws Exception {
        String body = event("evt_same", "charge.succeeded");

        assertEquals("t=" + SIGNED_AT + ",v1=" + sdkSignature(SECRET, SIGNED_AT, body),
                ourHeader(SECRET, SIGNED_AT, body));
    }

    @Test
    void officialSdkRejectsOurHeaderUnderAnotherSecret() {
        String body = event("evt_reverse", "customer.created");
        String header = ourHeader(SECRET, Instant.now().getEpochSecond(), body);

        assertThrows(SignatureVerificationException.class,
                () -> Webhook.Signature.verifyHeader(body, header, "whsec_other", 300));
    }

    @Test
    void acceptsWhenOnlyTheSecondV1EntryMatchesDuringRotation() throws Exception {
        var stripe = new Stripe();
        String body = event("evt_rolled", "invoice.paid");
        String header = "t=" + SIGNED_AT
                + ",v1=" + sdkSignature("whsec_retired_secret", SIGNED_AT, body)
                + ",v1=" + sdkSignature(SECRET, SIGNED_AT, body);

        VerifiedDelivery verified = stripe.verify(delivery(header, body, Instant.ofEpochSecond(SIGNED_AT)),
                source(stripe, SECRET));

        assertEquals("evt_rolled", verified.eventId());
    }

    @Test
    void acceptsSignatureByTheSecondConfiguredSecret() throws Exception {
        var stripe = new Stripe();
        String body = event("evt_second", "invoice.paid");
        String header = "t=" + SIGNED_AT + ",v1=" + sdkSignature(SECRET, SIGNED_AT, body);

        VerifiedDelivery verified = stripe.verify(delivery(header, body, Instant.ofEpochSecond(SIGNED_AT)),
                source(stripe, "whsec_previous", SECRET));

        assertEquals("evt_second", verified.eventId());
    }

    @Test
    void ignoresTheTestModeV0Entry() throws Exception {
        var stripe = new Stripe();
        String body = event("evt_v0", "invoice.paid");
        String header = "t=" + SIGNED_AT + ",v1=" + sdkSignature(SECRET, SIGNED_AT, body)
                + ",v0=6ffbb59b2300aae63f272406069a9788598b792a944a07aba816edb039989a39";

        assertEquals("evt_v0", stripe.verify(delivery(header, body, Instant.ofEpochSecond(SIGNED_AT)),
                source(stripe, SECRET)).eventId());
    }

    @Test
    void extractsTopLevelIdAndTypeNotNestedOnes() throws Exception {
        var stripe = new Stripe();
        String body = "{\"data\":{\"object\":{\"id\":\"in_nested\",\"type\":\"nested\"}},"
                + "\"id\":\"evt_top\",\"type\":\"invoice.finalized\"}";
        String header = ourHeader(SECRET, SIGNED_AT, body);

        VerifiedDelivery verified = stripe.verify(delivery(header, body, Instant.ofEpochSecond(SIGNED_AT)),
                source(stripe, SECRET));

        assertEquals("evt_top", verified.eventId());
        assertEquals("invoice.finalized", verified.type());
    }

    @Test
    void givesAnEmptyTypeWhenTheJsonHasNone() throws Exception {
        var stripe = new Stripe();
        String body = "{\"id\":\"evt_untyped\"}";

        VerifiedDelivery verified = stripe.verify(delivery(ourHeader(SECRET, SIGNED_AT, body), body,
                Instant.ofEpochSecond(SIGNED_AT)), source(stripe, SECRET));

        assertEquals("", verified.type());
    }

    @Test
    void retainsTheSignatureHeaderRedacted() throws Exception {
        var stripe = new Stripe();
        String body = event("evt_headers", "invoice.paid");

        Map<String, String> headers = stripe.verify(delivery(ourHeader(SECRET, SIGNED_AT, body), body,
                Instant.ofEpochSecond(SIGNED_AT)), source(stripe, SECRET)).headers();

        assertEquals("[redacted]", headers.get("stripe-signature"));
        assertEquals("application/json; charset=utf-8", headers.get("content-type"));
    }

    @Test
    void rejectsMissingSignatureHeader() {
        var stripe = new Stripe();
        String body = event("evt_1", "invoice.paid");

        assertEquals(Rejection.MISSING_SIGNATURE,
                rejection(stripe, delivery(null, body, Instant.ofEpochSecond(SIGNED_AT)), source(stripe, SECRET)));
    }

    @Test
    void rejectsHeaderWithoutTimestamp() {
        var stripe = new Stripe();
        String body = event("evt_1", "invoice.paid");
        String header = ourHeader(SECRET, SIGNED_AT, body).replace("t=" + SIGNED_AT + ",", "");

        assertEquals(Rejection.MALFORMED_SIGNATURE,
                rejection(stripe, delivery(header, body, Instant.ofEpochSecond(SIGNED_AT)), source(stripe, SECRET)));
    }

    @Test
    void rejectsHeaderWithoutV1Signature() {
        var stripe = new Stripe();
        String body = event("evt_1", "invoice.paid");
        String header = "t=" + SIGNED_AT + ",v0=" + ourHeader(SECRET, SIGNED_AT, body).split("v1=")[1];

        assertEquals(Rejection.MALFORMED_SIGNATURE,
                rejection(stripe, delivery(header, body, Instant.ofEpochSecond(SIGNED_AT)), source(stripe, SECRET)));
    }

    @Test
    void rejectsV1SignatureThatIsNotHex() {
        var stripe = new Stripe();
        String body = event("evt_1", "invoice.paid");
        String header = "t=" + SIGNED_AT + ",v1=" + "g".repeat(64);

        assertEquals(Rejection.MALFORMED_SIGNATURE,
                rejection(stripe, delivery(header, body, Instant.ofEpochSecond(SIGNED_AT)), source(stripe, SECRET)));
    }

    @Test
    void rejectsNonNumericTimestamp() {
        var stripe = new Stripe();
        String body = event("evt_1", "invoice.paid");
        String signature = ourHeader(SECRET, SIGNED_AT, body).split("v1=")[1];

        assertEquals(Rejection.INVALID_TIMESTAMP, rejection(stripe,
                delivery("t=yesterday,v1=" + signature, body, Instant.ofEpochSecond(SIGNED_AT)),
                source(stripe, SECRET)));
    }

    @Test
    void rejectsNegativeTimestamp() {
        var stripe = new Stripe();
        String body = event("evt_1", "invoice.paid");
        String header = "t=-5,v1=" + ourHeader(SECRET, -5, body).split("v1=")[1];

        assertEquals(Rejection.INVALID_TIMESTAMP,
                rejection(stripe, delivery(header, body, Instant.ofEpochSecond(0)), source(stripe, SECRET)));
    }

    @Test
    void acceptsTimestampExactlyAtTheTolerance() throws Exception {
        var stripe = new Stripe();
        String body = event("evt_edge", "invoice.paid");

        assertEquals("evt_edge", stripe.verify(delivery(ourHeader(SECRET, SIGNED_AT, body), body,
                Instant.ofEpochSecond(SIGNED_AT + 300)), source(stripe, SECRET)).eventId());
    }

    @Test
    void rejectsTimestamp301SecondsOld() {
        var stripe = new Stripe();
        String body = event("evt_1", "invoice.paid");

        assertEquals(Rejection.TIMESTAMP_OUT_OF_TOLERANCE, rejection(stripe,
                delivery(ourHeader(SECRET, SIGNED_AT, body), body, Instant.ofEpochSecond(SIGNED_AT + 301)),
                source(stripe, SECRET)));
    }

    @Test
    void rejectsTimestamp301SecondsInTheFuture() {
        var stripe = new Stripe();
        String body = event("evt_1", "invoice.paid");

        assertEquals(Rejection.TIMESTAMP_OUT_OF_TOLERANCE, rejection(stripe,
                delivery(ourHeader(SECRET, SIGNED_AT, body), body, Instant.ofEpochSecond(SIGNED_AT - 301)),
                source(stripe, SECRET)));
    }

    @Test
    void rejectsTimestampChangedAfterSigning() {
        var stripe = new Stripe();
        String body = event("evt_1", "invoice.paid");
        String header = ourHeader(SECRET, SIGNED_AT, body).replace("t=" + SIGNED_AT, "t=" + (SIGNED_AT + 1));

        assertEquals(Rejection.INVALID_SIGNATURE,
                rejection(stripe, delivery(header, body, Instant.ofEpochSecond(SIGNED_AT)), source(stripe, SECRET)));
    }

    @Test
    void rejectsBodyTamperedAfterSigning() {
        var stripe = new Stripe();
        String body = event("evt_1", "invoice.paid");
        String header = ourHeader(SECRET, SIGNED_AT, body);

        assertEquals(Rejection.INVALID_SIGNATURE, rejection(stripe,
                delivery(header, body.replace("invoice.paid", "invoice.void"), Instant.ofEpochSecond(SIGNED_AT)),
                source(stripe, SECRET)));
    }

    @Test
    void rejectsSignatureMadeWithAnotherSecret() {
        var stripe = new Stripe();
        String body = event("evt_1", "invoice.paid");

        assertEquals(Rejection.INVALID_SIGNATURE, rejection(stripe,
                delivery(ourHeader("whsec_someone_else", SIGNED_AT, body), body, Instant.ofEpochSecond(SIGNED_AT)),
                source(stripe, SECRET)));
    }

    @Test
    void rejectsSignedBodyThatIsNotJson() {
        var stripe = new Stripe();
        String body = "id=evt_1&type=invoice.paid";

        assertEquals(Rejection.INVALID_PAYLOAD, rejection(stripe,
                delivery(ourHeader(SECRET, SIGNED_AT, body), body, Instant.ofEpochSecond(SIGNED_AT)),
                source(stripe, SECRET)));
    }

    @Test
    void rejectsSignedBodyThatIsAJsonArray() {
        var stripe = new Stripe();
        String body = "[" + event("evt_1", "invoice.paid") + "]";

        assertEquals(Rejection.INVALID_PAYLOAD, rejection(stripe,
                delivery(ourHeader(SECRET, SIGNED_AT, body), body, Instant.ofEpochSecond(SIGNED_AT)),
                source(stripe, SECRET)));
    }

    @Test
    void rejectsSignedJsonWithoutId() {
        var stripe = new Stripe();
        String body = "{\"object\":\"event\",\"type\":\"invoice.paid\",\"data\":{\"id\":\"in_1\"}}";

        assertEquals(Rejection.MISSING_EVENT_ID, rejection(stripe,
                delivery(ourHeader(SECRET, SIGNED_AT, body), body, Instant.ofEpochSecond(SIGNED_AT)),
                source(stripe, SECRET)));
    }

    @Test
    void rejectsSignedJsonWithEmptyId() {
        var stripe = new Stripe();
        String body = "{\"id\":\"\",\"type\":\"invoice.paid\"}";

        assertEquals(Rejection.MISSING_EVENT_ID, rejection(stripe,
                delivery(ourHeader(SECRET, SIGNED_AT, body), body, Instant.ofEpochSecond(SIGNED_AT)),
                source(stripe, SECRET)));
    }

    @Test
    void isRegisteredUnderTheNameStripe() {
        assertEquals(Stripe.class, Providers.byName("stripe").orElseThrow().getClass());
    }
}
