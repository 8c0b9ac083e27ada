package dev.hookstile.source.control;

import dev.hookstile.source.Delivery;
import dev.hookstile.source.InvalidSetting;
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

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TwilioTest {

    /** The worked example of twilio.com/docs/usage/webhooks/webhooks-security. */
    private static final String DOCS_TOKEN = "12345";
    private static final String DOCS_URL = "https://mycompany.com/myapp.php?foo=1&bar=2";
    private static final String DOCS_SIGNATURE = "0/KCTR6DLpKmkAf8muzZqo1nDgQ=";
    // The docs' parameters, written out of order and form-encoded as Twilio posts them.
    private static final String DOCS_BODY =
            "To=%2B18005551212&CallSid=CA1234567890ABCDE&Digits=1234&From=%2B12349013030&Caller=%2B12349013030";

    /** Twilio's JSON example (twilio-samples/api-snippets, signature_validation_json): body and its bodySHA256. */
    private static final String JSON_BODY = "{\"CallSid\":\"CA1234567890ABCDE\",\"Caller\":\"+12349013030\"}";
    private static final String JSON_URL =
            "https://example.com/myapp?bodySHA256=5ccde7145dfb8f56479710896586cb9d5911809d83afbe34627818790db0aec9";

    /** Where the request arrives behind the proxy: another scheme, host, port and path, the same query string. */
    private static final String SEEN_URL = "http://10.0.0.7:8080/webhooks/calls?foo=1&bar=2";

    private static Source source(Map<String, String> settings, String... tokens) {
        var twilio = new Twilio();
        List<byte[]> keys = Arrays.stream(tokens).map(twilio::decodeSecret).toList();
        return SourceBuilder.source("calls", twilio)
                .secrets(keys).tolerance(Duration.ofSeconds(300)).settings(settings).build();
    }

    private static Source behindProxy(String... tokens) {
        return source(Map.of("public-url", "https://mycompany.com/myapp.php"), tokens);
    }

    private static Delivery delivery(Map<String, String> headers, String body, String url) {
        var lookup = new TreeMap<String, String>(String.CASE_INSENSITIVE_ORDER);
        lookup.putAll(headers);
        return new Delivery(lookup::get, body.getBytes(StandardCharsets.UTF_8), Instant.now(), url);
    }

    private static Delivery signed(String signature, String body) {
        return delivery(Map.of("X-Twilio-Signature", signature), body, SEEN_URL);
    }

    /** Twilio's algorithm written out independently: URL, then name + value sorted by name, then by value. */
    private static String sign(String token, String url, String... namesAndValues) {
        var pairs = new java.util.ArrayList<String[]>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            pairs.add(new String[] {namesAndValues[i], namesAndValues[i + 1]});
        }
        pairs.sort((a, b) -> a[0].equals(b[0]) ? a[1].compareTo(b[1]) : a[0].compareTo(b[0]));
        var text = new StringBuilder(url);
        pairs.forEach(pair -> text.append(pair[0]).append(pair[1]));
        try {
            Mac mac = Mac.getInstance("HmacSHA1");
            mac.init(new SecretKeySpec(token.getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
            return Base64.getEncoder().encodeToString(mac.doFinal(text.toString().getBytes(StandardCharsets.UTF_8)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static Rejection rejection(Delivery delivery, Source source) {
        return assertThrows(RejectedDelivery.class, () -> new Twilio().verify(delivery, source)).reason();
    }

    private static VerifiedDelivery verify(Delivery delivery, Source source) throws RejectedDelivery {
        return new Twilio().verify(delivery, source);
    }

    // --- the published example and the URL

    @Test
    void signsTheDocsExampleAsTheDocsSay() {
        assertEquals(DOCS_SIGNATURE, sign(DOCS_TOKEN, DOCS_URL, "CallSid", "CA1234567890ABCDE",
                "Caller", "+12349013030", "Digits", "1234", "From", "+12349013030", "To", "+18005551212"));
    }

    @Test
    void acceptsTheDocsExampleUnderThePublicUrlWithTheRequestsQueryString() throws RejectedDelivery {
        VerifiedDelivery verified = verify(signed(DOCS_SIGNATURE, DOCS_BODY), behindProxy(DOCS_TOKEN));

        assertEquals("CA1234567890ABCDE", verified.eventId());
        assertEquals("", verified.type());
    }

    @Test
    void neverTrustsTheRequestsHostAndSchemeWithoutPublicUrl() {
        // Scheme and Host are what the sender says they are: signed over them, a delivery proves nothing about
        // the URL Twilio was given.
        var delivery = delivery(Map.of("X-Twilio-Signature", DOCS_SIGNATURE), DOCS_BODY, DOCS_URL);

        assertEquals(Rejection.INVALID_SIGNATURE, rejection(delivery, source(Map.of(), DOCS_TOKEN)));
    }

    @Test
    void rejectsTheDocsExampleUnderTheRewrittenRequestUrlWithoutPublicUrl() {
        assertEquals(Rejection.INVALID_SIGNATURE,
                rejection(signed(DOCS_SIGNATURE, DOCS_BODY), source(Map.of(), DOCS_TOKEN)));
    }

    @Test
    void refusesAFormOfTooManyFieldsBeforeCheckingItsSignature() {
        String body = DOCS_BODY + "&x=1".repeat(FormFields.MAX_FIELDS);

        assertEquals(Rejection.TOO_MANY_FIELDS, rejection(signed(DOCS_SIGNATURE, body), behindProxy(DOCS_TOKEN)));
    }

    @Test
    void rejectsTheDocsExampleUnderAnotherPublicUrl() {
        assertEquals(Rejection.INVALID_SIGNATURE, rejection(signed(DOCS_SIGNATURE, DOCS_BODY),
                source(Map.of("public-url", "https://mycompany.com/other.php"), DOCS_TOKEN)));
    }

    @Test
    void rejectsTheDocsExampleUnderPlainHttp() {
        assertEquals(Rejection.INVALID_SIGNATURE, rejection(signed(DOCS_SIGNATURE, DOCS_BODY),
                source(Map.of("public-url", "http://mycompany.com/myapp.php"), DOCS_TOKEN)));
    }

    @Test
    void rejectsTheDocsExampleWithAnotherQueryString() {
        var delivery = delivery(Map.of("X-Twilio-Signature", DOCS_SIGNATURE), DOCS_BODY,
                "http://10.0.0.7:8080/webhooks/calls?foo=1&bar=3");

        assertEquals(Rejection.INVALID_SIGNATURE, rejection(delivery, behindProxy(DOCS_TOKEN)));
    }

    @Test
    void rejectsTheDocsExampleWithTheQueryStringReordered() {
        var delivery = delivery(Map.of("X-Twilio-Signature", DOCS_SIGNATURE), DOCS_BODY,
                "http://10.0.0.7:8080/webhooks/calls?bar=2&foo=1");

        assertEquals(Rejection.INVALID_SIGNATURE, rejection(delivery, behindProxy(DOCS_TOKEN)));
    }

    @Test
    void rejectsTheDocsExampleWithoutItsQueryString() {
        var delivery = delivery(Map.of("X-Twilio-Signature", DOCS_SIGNATURE), DOCS_BODY,
                "http://10.0.0.7:8080/webhooks/calls");

        assertEquals(Rejection.INVALID_SIGNATURE, rejection(delivery, behindProxy(DOCS_TOKEN)));
    }

    @Test
    void acceptsASignatureOverTheUrlWithTheDefaultPort() throws RejectedDelivery {
        String signature = sign("tok", "https://mycompany.com:443/myapp.php?foo=1&bar=2", "CallSid", "CA1");

        assertEquals("CA1", verify(signed(signature, "CallSid=CA1"), behindProxy("tok")).eventId());
    }

    @Test
    void acceptsASignatureWithoutThePortOfThePublicUrl() throws RejectedDelivery {
        String signature = sign("tok", "https://mycompany.com/myapp.php?foo=1&bar=2", "CallSid", "CA1");
        Source source = source(Map.of("public-url", "https://mycompany.com:443/myapp.php"), "tok");

        assertEquals("CA1", verify(signed(signature, "CallSid=CA1"), source).eventId());
    }

    @Test
    void rejectsASignatureOverAnotherPort() {
        String signature = sign("tok", "https://mycompany.com:8443/myapp.php?foo=1&bar=2", "CallSid", "CA1");

        assertEquals(Rejection.INVALID_SIGNATURE, rejection(signed(signature, "CallSid=CA1"), behindProxy("tok")));
    }

    @Test
    void rejectsWhenNoUrlIsKnown() {
        var delivery = new Delivery(Map.of("X-Twilio-Signature", DOCS_SIGNATURE)::get,
                DOCS_BODY.getBytes(StandardCharsets.UTF_8), Instant.now());

        assertEquals(Rejection.INVALID_SIGNATURE, rejection(delivery, source(Map.of(), DOCS_TOKEN)));
    }

    // --- tampering

    @Test
    void rejectsAChangedParameterValue() {
        assertEquals(Rejection.INVALID_SIGNATURE,
                rejection(signed(DOCS_SIGNATURE, DOCS_BODY.replace("Digits=1234", "Digits=1235")),
                        behindProxy(DOCS_TOKEN)));
    }

    @Test
    void rejectsAnAddedParameter() {
        assertEquals(Rejection.INVALID_SIGNATURE,
                rejection(signed(DOCS_SIGNATURE, DOCS_BODY + "&Extra=1"), behindProxy(DOCS_TOKEN)));
    }

    @Test
    void rejectsAnAddedParameterWithAnEmptyValue() {
        assertEquals(Rejection.INVALID_SIGNATURE,
                rejection(signed(DOCS_SIGNATURE, DOCS_BODY + "&Extra="), behindProxy(DOCS_TOKEN)));
    }

    @Test
    void rejectsARemovedParameter() {
        assertEquals(Rejection.INVALID_SIGNATURE,
                rejection(signed(DOCS_SIGNATURE, DOCS_BODY.replace("&Digits=1234", "")), behindProxy(DOCS_TOKEN)));
    }

    @Test
    void rejectsADuplicatedParameter() {
        assertEquals(Rejection.INVALID_SIGNATURE,
                rejection(signed(DOCS_SIGNATURE, DOCS_BODY + "&Digits=1234"), behindProxy(DOCS_TOKEN)));
    }

    @Test
    void rejectsValuesSwappedBetweenParameters() {
        String body = "CallSid=CA1&From=%2B1&To=%2B2";
        String signature = sign("tok", "https://mycompany.com/myapp.php?foo=1&bar=2",
                "CallSid", "CA1", "From", "+1", "To", "+2");

        assertEquals(Rejection.INVALID_SIGNATURE,
                rejection(signed(signature, "CallSid=CA1&From=%2B2&To=%2B1"), behindProxy("tok")));
        assertDoesNotThrow(() -> verify(signed(signature, body), behindProxy("tok")));
    }

    @Test
    void rejectsAPlusThatWasNotEscaped() {
        // An unescaped '+' is a space: "From= 12349013030" is not what Twilio signed.
        assertEquals(Rejection.INVALID_SIGNATURE,
                rejection(signed(DOCS_SIGNATURE, DOCS_BODY.replace("%2B", "+")), behindProxy(DOCS_TOKEN)));
    }

    @Test
    void rejectsASignatureMadeWithAnotherToken() {
        assertEquals(Rejection.INVALID_SIGNATURE, rejection(signed(DOCS_SIGNATURE, DOCS_BODY), behindProxy("54321")));
    }

    @Test
    void rejectsAMissingSignatureHeader() {
        assertEquals(Rejection.MISSING_SIGNATURE,
                rejection(delivery(Map.of(), DOCS_BODY, SEEN_URL), behindProxy(DOCS_TOKEN)));
    }

    @Test
    void rejectsASignatureThatIsNotBase64() {
        assertEquals(Rejection.MALFORMED_SIGNATURE,
                rejection(signed("0/KCTR6DLpKmkAf8muzZqo1nDgQ!", DOCS_BODY), behindProxy(DOCS_TOKEN)));
    }

    @Test
    void rejectsASignatureOfTheWrongLength() {
        String sha256Length = Base64.getEncoder().encodeToString(new byte[32]);

        assertEquals(Rejection.MALFORMED_SIGNATURE,
                rejection(signed(sha256Length, DOCS_BODY), behindProxy(DOCS_TOKEN)));
    }

    @Test
    void rejectsAnEmptySignature() {
        assertEquals(Rejection.MALFORMED_SIGNATURE, rejection(signed("", DOCS_BODY), behindProxy(DOCS_TOKEN)));
    }

    @Test
    void rejectsABodyThatIsNotFormEncoding() {
        assertEquals(Rejection.INVALID_PAYLOAD,
                rejection(signed(DOCS_SIGNATURE, DOCS_BODY + "&Body=100%"), behindProxy(DOCS_TOKEN)));
    }

    // --- repeated names

    @Test
    void acceptsRepeatedNamesInAnyOrderSortedByValue() throws RejectedDelivery {
        String signature = sign("tok", "https://mycompany.com/myapp.php?foo=1&bar=2",
                "MessageSid", "SM1", "Address", "+2", "Address", "+1", "Address", "+3");

        VerifiedDelivery verified = verify(
                signed(signature, "Address=%2B3&MessageSid=SM1&Address=%2B1&Address=%2B2"), behindProxy("tok"));

        assertEquals("SM1", verified.eventId());
    }

    @Test
    void rejectsRepeatedNamesSignedInBodyOrderInsteadOfByValue() {
        String text = "https://mycompany.com/myapp.php?foo=1&bar=2" + "Address+2" + "Address+1" + "MessageSidSM1";
        String bodyOrder;
        try {
            Mac mac = Mac.getInstance("HmacSHA1");
            mac.init(new SecretKeySpec("tok".getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
            bodyOrder = Base64.getEncoder().encodeToString(mac.doFinal(text.getBytes(StandardCharsets.UTF_8)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }

        assertEquals(Rejection.INVALID_SIGNATURE, rejection(
                signed(bodyOrder, "Address=%2B2&Address=%2B1&MessageSid=SM1"), behindProxy("tok")));
    }

    // --- rotation

    @Test
    void acceptsTheOldTokenDuringRotation() throws RejectedDelivery {
        assertEquals("CA1234567890ABCDE",
                verify(signed(DOCS_SIGNATURE, DOCS_BODY), behindProxy(DOCS_TOKEN, "new-token")).eventId());
    }

    @Test
    void acceptsTheNewTokenDuringRotation() throws RejectedDelivery {
        assertEquals("CA1234567890ABCDE",
                verify(signed(DOCS_SIGNATURE, DOCS_BODY), behindProxy("old-token", DOCS_TOKEN)).eventId());
    }

    @Test
    void rejectsNeitherTokenDuringRotation() {
        assertEquals(Rejection.INVALID_SIGNATURE,
                rejection(signed(DOCS_SIGNATURE, DOCS_BODY), behindProxy("old-token", "new-token")));
    }

    // --- JSON bodies

    /** The source Twilio's JSON example was signed for: its URL without the query string. */
    private static Source jsonSource() {
        return source(Map.of("public-url", "https://example.com/myapp"), DOCS_TOKEN);
    }

    @Test
    void acceptsAJsonBodyMatchingTheSignedBodySha256() throws RejectedDelivery {
        var delivery = delivery(Map.of("X-Twilio-Signature", sign(DOCS_TOKEN, JSON_URL)), JSON_BODY, JSON_URL);

        assertEquals("CA1234567890ABCDE", verify(delivery, jsonSource()).eventId());
    }

    @Test
    void appendsBodySha256FromTheRequestToThePublicUrl() throws RejectedDelivery {
        var delivery = delivery(Map.of("X-Twilio-Signature", sign(DOCS_TOKEN, JSON_URL)), JSON_BODY,
                "http://10.0.0.7:8080/webhooks/calls" + JSON_URL.substring(JSON_URL.indexOf('?')));

        assertEquals("CA1234567890ABCDE",
                verify(delivery, source(Map.of("public-url", "https://example.com/myapp"), DOCS_TOKEN)).eventId());
    }

    @Test
    void rejectsAJsonBodyChangedAfterSigning() {
        var delivery = delivery(Map.of("X-Twilio-Signature", sign(DOCS_TOKEN, JSON_URL)),
                JSON_BODY.replace("CA1234567890ABCDE", "CA1234567890ABCDF"), JSON_URL);

        assertEquals(Rejection.INVALID_SIGNATURE, rejection(delivery, jsonSource()));
    }

    @Test
    void rejectsABodySha256ChangedAfterSigning() {
        String forgedUrl = JSON_URL.replace("5ccde", "5ccdf");
        var delivery = delivery(Map.of("X-Twilio-Signature", sign(DOCS_TOKEN, JSON_URL)), JSON_BODY, forgedUrl);

        assertEquals(Rejection.INVALID_SIGNATURE, rejection(delivery, jsonSource()));
    }

    @Test
    void rejectsAJsonBodySignedWithItsFieldsAsParameters() {
        String signature = sign(DOCS_TOKEN, JSON_URL, "CallSid", "CA1234567890ABCDE", "Caller", "+12349013030");
        var delivery = delivery(Map.of("X-Twilio-Signature", signature), JSON_BODY, JSON_URL);

        assertEquals(Rejection.INVALID_SIGNATURE, rejection(delivery, jsonSource()));
    }

    @Test
    void identifiesAJsonBodyThatIsNotAnObjectByItsIdempotencyToken() throws RejectedDelivery {
        String body = "[{\"id\":\"evt\"}]";
        String url = "https://example.com/myapp?bodySHA256=" + Hmac.hex(sha256(body));
        var delivery = delivery(Map.of("X-Twilio-Signature", sign(DOCS_TOKEN, url),
                "I-Twilio-Idempotency-Token", "idem-1"), body, url);

        VerifiedDelivery verified = verify(delivery, jsonSource());

        assertEquals("idem-1", verified.eventId());
        assertEquals("", verified.type());
    }

    @Test
    void rejectsAJsonBodyThatIsNotAnObjectWithoutAnIdempotencyToken() {
        String body = "[{\"id\":\"evt\"}]";
        String url = "https://example.com/myapp?bodySHA256=" + Hmac.hex(sha256(body));
        var delivery = delivery(Map.of("X-Twilio-Signature", sign(DOCS_TOKEN, url)), body, url);

        assertEquals(Rejection.INVALID_PAYLOAD, rejection(delivery, jsonSource()));
    }

    private static byte[] sha256(String body) {
        try {
            return java.security.MessageDigest.getInstance("SHA-256").digest(body.getBytes(StandardCharsets.UTF_8));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    // --- event id and type

    private static VerifiedDelivery verifyForm(Map<String, String> headers, String... namesAndValues)
            throws RejectedDelivery {
        var body = new StringBuilder();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            body.append(body.isEmpty() ? "" : "&").append(namesAndValues[i]).append('=').append(namesAndValues[i + 1]);
        }
        var all = new HashMap<>(headers);
        all.put("X-Twilio-Signature", sign("tok", "https://mycompany.com/myapp.php?foo=1&bar=2", namesAndValues));
        return verify(delivery(all, body.toString(), SEEN_URL), behindProxy("tok"));
    }

    @Test
    void identifiesByTheIdempotencyTokenFirst() throws RejectedDelivery {
        VerifiedDelivery verified = verifyForm(Map.of("I-Twilio-Idempotency-Token", "AC1-deadbeef"),
                "MessageSid", "SM1", "MessageStatus", "delivered");

        assertEquals("AC1-deadbeef", verified.eventId());
        assertEquals("delivered", verified.type());
    }

    @Test
    void identifiesAMessageStatusCallbackBySidAndStatus() throws RejectedDelivery {
        VerifiedDelivery verified = verifyForm(Map.of(), "SmsSid", "SM1", "SmsStatus", "sent",
                "MessageStatus", "delivered", "MessageSid", "SM1");

        assertEquals("SM1:delivered", verified.eventId());
        assertEquals("delivered", verified.type());
    }

    @Test
    void identifiesAnIncomingMessageByItsLegacySmsStatus() throws RejectedDelivery {
        VerifiedDelivery verified = verifyForm(Map.of(), "MessageSid", "SM2", "SmsSid", "SM2",
                "SmsStatus", "received");

        assertEquals("SM2:received", verified.eventId());
        assertEquals("received", verified.type());
    }

    @Test
    void identifiesByTheLegacySmsSid() throws RejectedDelivery {
        assertEquals("SM3:queued", verifyForm(Map.of(), "SmsSid", "SM3", "SmsStatus", "queued").eventId());
    }

    @Test
    void identifiesACallStatusCallbackBySidAndStatus() throws RejectedDelivery {
        VerifiedDelivery verified = verifyForm(Map.of(), "CallSid", "CA9", "CallStatus", "completed");

        assertEquals("CA9:completed", verified.eventId());
        assertEquals("completed", verified.type());
    }

    @Test
    void identifiesARecordingCallbackByTheRecordingNotTheCall() throws RejectedDelivery {
        VerifiedDelivery verified = verifyForm(Map.of(), "CallSid", "CA9", "RecordingSid", "RE1",
                "RecordingStatus", "completed");

        assertEquals("RE1:completed", verified.eventId());
        assertEquals("completed", verified.type());
    }

    @Test
    void identifiesByTheSidAloneWithoutAStatus() throws RejectedDelivery {
        VerifiedDelivery verified = verifyForm(Map.of(), "CallSid", "CA9", "Digits", "1");

        assertEquals("CA9", verified.eventId());
        assertEquals("", verified.type());
    }

    @Test
    void ignoresAnEmptyIdempotencyToken() throws RejectedDelivery {
        assertEquals("CA9:ringing", verifyForm(Map.of("I-Twilio-Idempotency-Token", ""),
                "CallSid", "CA9", "CallStatus", "ringing").eventId());
    }

    @Test
    void rejectsACallbackWithNeitherTokenNorSid() {
        assertEquals(Rejection.MISSING_EVENT_ID, assertThrows(RejectedDelivery.class,
                () -> verifyForm(Map.of(), "AccountSid", "AC1", "CallStatus", "ringing")).reason());
    }

    @Test
    void rejectsAnEmptySid() {
        assertEquals(Rejection.MISSING_EVENT_ID, assertThrows(RejectedDelivery.class,
                () -> verifyForm(Map.of(), "CallSid", "", "CallStatus", "ringing")).reason());
    }

    @Test
    void checksTheSignatureBeforeTheEventId() {
        assertEquals(Rejection.INVALID_SIGNATURE,
                rejection(signed(DOCS_SIGNATURE, "AccountSid=AC1"), behindProxy(DOCS_TOKEN)));
    }

    // --- headers

    @Test
    void retainsHeadersLowerCasedWithTheSignatureRedacted() throws RejectedDelivery {
        var delivery = delivery(Map.of("X-Twilio-Signature", DOCS_SIGNATURE,
                "I-Twilio-Idempotency-Token", "idem-2", "Content-Type", "application/x-www-form-urlencoded",
                "User-Agent", "TwilioProxy/1.1", "Authorization", "Basic not-to-be-kept"), DOCS_BODY, SEEN_URL);

        Map<String, String> headers = verify(delivery, behindProxy(DOCS_TOKEN)).headers();

        assertEquals(Map.of("x-twilio-signature", "[redacted]", "i-twilio-idempotency-token", "idem-2",
                "content-type", "application/x-www-form-urlencoded", "user-agent", "TwilioProxy/1.1"), headers);
        assertFalse(headers.values().stream().anyMatch(v -> v.contains("KCTR6")));
    }

    // --- settings

    private static InvalidSetting invalid(String publicUrl) {
        return assertThrows(InvalidSetting.class, () -> new Twilio().checkSettings(Map.of("public-url", publicUrl)));
    }

    @Test
    void readsThePublicUrlSetting() {
        assertEquals(java.util.Set.of("public-url"), new Twilio().settingNames());
    }

    @Test
    void acceptsAnAbsoluteHttpsPublicUrl() {
        assertDoesNotThrow(() -> new Twilio().checkSettings(Map.of("public-url", "https://hooks.example.com/w/sms")));
    }

    @Test
    void requiresThePublicUrl() {
        InvalidSetting missing = assertThrows(InvalidSetting.class, () -> new Twilio().checkSettings(Map.of()));

        assertEquals("public-url", missing.setting());
        assertTrue(missing.problem().startsWith("is required"), missing.problem());
    }

    @Test
    void refusesAPublicUrlWithAQueryString() {
        assertEquals("public-url", invalid("https://hooks.example.com/w/sms?tenant=a").setting());
    }

    @Test
    void refusesARelativePublicUrl() {
        assertEquals("public-url", invalid("/webhooks/sms").setting());
    }

    @Test
    void refusesAPublicUrlThatIsNotHttp() {
        assertEquals("public-url", invalid("ftp://hooks.example.com/w/sms").setting());
    }

    @Test
    void refusesAPublicUrlThatDoesNotParse() {
        assertEquals("public-url", invalid("https://hooks.example.com/w sms").setting());
    }

    // --- what body deduplication compares

    @Test
    void theDocsExampleReorderedAndReEncodedVerifiesAndHasTheSameFingerprint() throws RejectedDelivery {
        // Fields in another order, a letter percent-encoded, "+" written %2B's way round: the same signed fields.
        String reEncoded = "Caller=%2B12349013030&Digits=1234&%43allSid=CA1234567890ABCDE&To=%2B18005551212"
                + "&From=%2b12349013030";
        verify(signed(DOCS_SIGNATURE, reEncoded), behindProxy(DOCS_TOKEN));

        assertArrayEquals(fingerprint(DOCS_BODY), fingerprint(reEncoded));
    }

    @Test
    void aFormWithOtherSignedContentHasAnotherFingerprint() {
        assertFalse(Arrays.equals(fingerprint(DOCS_BODY), fingerprint(DOCS_BODY.replace("Digits=1234", "Digits=1235"))));
        assertFalse(Arrays.equals(fingerprint(DOCS_BODY), fingerprint(DOCS_BODY + "&Extra=1")));
    }

    @Test
    void aBodyThatIsNoFormIsFingerprintedOnItsBytes() throws Exception {
        String notAForm = "{\"Body\":\"100%\"}";

        assertArrayEquals(java.security.MessageDigest.getInstance("SHA-256").digest(utf8(notAForm)),
                fingerprint(notAForm));
    }

    @Test
    void aJsonBodyVerifiedByItsBodySha256KeepsAFingerprintOfItsOwn() {
        String other = JSON_BODY.replace("CA1234567890ABCDE", "CA1234567890ABCDF");

        assertFalse(Arrays.equals(fingerprint(JSON_BODY), fingerprint(other)));
    }

    private static byte[] fingerprint(String body) {
        return new Twilio().bodyFingerprint(utf8(body));
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
