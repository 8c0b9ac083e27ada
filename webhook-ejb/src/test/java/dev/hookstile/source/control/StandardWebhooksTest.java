package dev.hookstile.source.control;

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
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class StandardWebhooksTest {

    /** The test vector published with the Standard Webhooks specification (standard-webhooks/standard-webhooks). */
    private static final String SPEC_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final String SPEC_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    private static final String SPEC_TIMESTAMP = "1614265330";
    private static final String SPEC_PAYLOAD = "{\"test\": 2432232314}";
    private static final String SPEC_SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";
    private static final Instant SPEC_NOW = Instant.ofEpochSecond(1614265330L);

    private static Source source(StandardWebhooks provider, String... secrets) {
        List<byte[]> keys = Arrays.stream(secrets).map(provider::decodeSecret).toList();
        return SourceBuilder.source("svix", provider).secrets(keys).tolerance(Duration.ofSeconds(300)).build();
    }

    private static Map<String, String> specHeaders() {
        var headers = new HashMap<String, String>();
        headers.put("webhook-id", SPEC_ID);
        headers.put("webhook-timestamp", SPEC_TIMESTAMP);
        headers.put("webhook-signature", SPEC_SIGNATURE);
        return headers;
    }

    private static Delivery delivery(Map<String, String> headers, String body, Instant receivedAt) {
        var lookup = new TreeMap<String, String>(String.CASE_INSENSITIVE_ORDER);
        lookup.putAll(headers);
        return new Delivery(lookup::get, body.getBytes(StandardCharsets.UTF_8), receivedAt);
    }

    private static String sign(String secret, String id, String timestamp, String body) {
        byte[] key = Base64.getDecoder().decode(secret.substring("whsec_".length()));
        byte[] mac = Hmac.compute(Hmac.SHA256, key, (id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8),
                body.getBytes(StandardCharsets.UTF_8));
        return "v1," + Base64.getEncoder().encodeToString(mac);
    }

    private static Rejection rejection(StandardWebhooks provider, Delivery delivery, Source source) {
        return assertThrows(RejectedDelivery.class, () -> provider.verify(delivery, source)).reason();
    }

    /** The asymmetric vector of the specification's libraries: an Ed25519 seed, the same message. */
    private static final String SPEC_SIGNING_KEY = "whsk_VEVTVFNJR05JTkdLRVlET05PVFVTRVRISVNGT1JBTlk=";
    private static final String SPEC_V1A = "v1a,tQ9V2XOqn7jL/DQenEFpqIugdBVtiMmER5mhSkXBNwM0mkATuDe6KYYUuxqtaiHeYGb7KaaB"
            + "RdM5WqyeFiL8Ag==";
    private static final String SPEC_PUBLIC_KEY = dev.hookstile.test.Deliveries.publicKeyOf(SPEC_SIGNING_KEY);
    private static final String OTHER_PUBLIC_KEY = dev.hookstile.test.Deliveries.publicKeyOf(
            "whsk_" + Base64.getEncoder().encodeToString("another seed of thirty-two bytes".getBytes(StandardCharsets.UTF_8)));

    private static Source keyed(String publicKeys, String... secrets) {
        var provider = new StandardWebhooks();
        List<byte[]> keys = Arrays.stream(secrets).map(provider::decodeSecret).toList();
        return SourceBuilder.source("sw", provider)
                .secrets(keys).tolerance(Duration.ofSeconds(300)).settings(Map.of("public-keys", publicKeys)).build();
    }

    private static Delivery signedWith(String signatures) {
        var headers = specHeaders();
        headers.put("webhook-signature", signatures);
        return delivery(headers, SPEC_PAYLOAD, SPEC_NOW);
    }

    @Test
    void acceptsTheSpecificationsAsymmetricVectorWithItsPublicKeyAlone() throws RejectedDelivery {
        var provider = new StandardWebhooks();

        assertEquals(SPEC_ID, provider.verify(signedWith(SPEC_V1A), keyed(SPEC_PUBLIC_KEY)).eventId());
        assertEquals(SPEC_ID, provider.verify(signedWith(SPEC_V1A), keyed(OTHER_PUBLIC_KEY + ", " + SPEC_PUBLIC_KEY))
                .eventId(), "any key of a rotation");
        assertEquals(SPEC_ID, provider.verify(signedWith(SPEC_V1A), keyed(SPEC_PUBLIC_KEY.substring(5))).eventId(),
                "the prefix may be left out");
    }

    @Test
    void aSourceHoldingBothKindsAcceptsAValidSignatureOfEitherAmongOthers() throws RejectedDelivery {
        var provider = new StandardWebhooks();
        Source both = keyed(SPEC_PUBLIC_KEY, SPEC_SECRET);
        String wrongV1 = "v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=";

        assertEquals(SPEC_ID, provider.verify(signedWith(SPEC_SIGNATURE), both).eventId());
        assertEquals(SPEC_ID, provider.verify(signedWith(SPEC_V1A), both).eventId());
        assertEquals(SPEC_ID, provider.verify(signedWith(wrongV1 + " v2,abc " + SPEC_V1A + " " + wrongV1), both)
                .eventId(), "several entries, any valid one counts");
    }

    @Test
    void aV1aSignatureOfAnotherKeyOrBodyIsRefused() {
        var provider = new StandardWebhooks();

        assertEquals(Rejection.INVALID_SIGNATURE, rejection(provider, signedWith(SPEC_V1A), keyed(OTHER_PUBLIC_KEY)));
        var tampered = specHeaders();
        tampered.put("webhook-signature", SPEC_V1A);
        assertEquals(Rejection.INVALID_SIGNATURE, rejection(provider, delivery(tampered, SPEC_PAYLOAD + " ", SPEC_NOW),
                keyed(SPEC_PUBLIC_KEY)));
        assertEquals(Rejection.INVALID_SIGNATURE, rejection(provider, signedWith("v1a,"), keyed(SPEC_PUBLIC_KEY)),
                "an empty signature");
        assertEquals(Rejection.INVALID_SIGNATURE, rejection(provider, signedWith("v1a,%%%"), keyed(SPEC_PUBLIC_KEY)),
                "not base64");
        assertEquals(Rejection.INVALID_SIGNATURE, rejection(provider, signedWith("v1a," + Base64.getEncoder()
                .encodeToString(new byte[64])), keyed(SPEC_PUBLIC_KEY)), "64 bytes that are no signature");
    }

    @Test
    void aSourceWithPublicKeysOnlyFindsNoV1EntryItCanCheck() {
        var provider = new StandardWebhooks();

        assertEquals(Rejection.MALFORMED_SIGNATURE, rejection(provider, signedWith(SPEC_SIGNATURE),
                keyed(SPEC_PUBLIC_KEY)));
        assertEquals(Rejection.MALFORMED_SIGNATURE, rejection(provider, signedWith(SPEC_V1A),
                source(provider, SPEC_SECRET)), "and one with secrets only no v1a entry");
    }

    @Test
    void onlyTheFirstFewV1aEntriesAreCheckedSoAStuffedHeaderBuysNoCpu() {
        var provider = new StandardWebhooks();
        String junk = "v1a," + Base64.getEncoder().encodeToString(new byte[64]);
        String stuffed = String.join(" ", java.util.Collections.nCopies(StandardWebhooks.MAX_V1A_ENTRIES, junk));

        assertEquals(Rejection.INVALID_SIGNATURE, rejection(provider, signedWith(stuffed + " " + SPEC_V1A),
                keyed(SPEC_PUBLIC_KEY)));
    }

    @Test
    void publicKeysThatAreNotEd25519KeysAreRefusedAtTheStartNamingTheSetting() {
        var provider = new StandardWebhooks();
        for (String bad : List.of(" ", "whpk_%%%", "whpk_" + Base64.getEncoder().encodeToString(new byte[16]),
                SPEC_PUBLIC_KEY + ",whpk_abc")) {
            var e = assertThrows(dev.hookstile.source.InvalidSetting.class,
                    () -> provider.checkSettings(Map.of("public-keys", bad)), bad);
            assertEquals("public-keys", e.setting());
        }
        provider.checkSettings(Map.of("public-keys", SPEC_PUBLIC_KEY + ", " + OTHER_PUBLIC_KEY));
    }

    @Test
    void acceptsTheSpecificationsTestVector() throws RejectedDelivery {
        var provider = new StandardWebhooks();

        VerifiedDelivery verified = provider.verify(delivery(specHeaders(), SPEC_PAYLOAD, SPEC_NOW),
                source(provider, SPEC_SECRET));

        assertEquals(SPEC_ID, verified.eventId());
        assertEquals("", verified.type());
    }

    @Test
    void signsTheTestVectorAsTheSpecificationSays() {
        assertEquals(SPEC_SIGNATURE, sign(SPEC_SECRET, SPEC_ID, SPEC_TIMESTAMP, SPEC_PAYLOAD));
    }

    @Test
    void acceptsSecretWithoutTheWhsecPrefix() throws RejectedDelivery {
        var provider = new StandardWebhooks();

        VerifiedDelivery verified = provider.verify(delivery(specHeaders(), SPEC_PAYLOAD, SPEC_NOW),
                source(provider, SPEC_SECRET.substring("whsec_".length())));

        assertEquals(SPEC_ID, verified.eventId());
    }

    @Test
    void refusesSecretThatIsNotBase64() {
        var provider = new StandardWebhooks();

        assertThrows(IllegalArgumentException.class, () -> provider.decodeSecret("whsec_not*base64!"));
    }

    @Test
    void extractsTheTypeFromTheJsonBody() throws RejectedDelivery {
        var provider = new StandardWebhooks();
        String body = "{\"type\":\"user.created\",\"data\":{\"type\":\"nested\"}}";
        var headers = specHeaders();
        headers.put("webhook-signature", sign(SPEC_SECRET, SPEC_ID, SPEC_TIMESTAMP, body));

        assertEquals("user.created",
                provider.verify(delivery(headers, body, SPEC_NOW), source(provider, SPEC_SECRET)).type());
    }

    @Test
    void retainsTheSignatureHeaderRedacted() throws RejectedDelivery {
        var provider = new StandardWebhooks();
        var headers = specHeaders();
        headers.put("Content-Type", "application/json");

        Map<String, String> kept = provider.verify(delivery(headers, SPEC_PAYLOAD, SPEC_NOW),
                source(provider, SPEC_SECRET)).headers();

        assertEquals("[redacted]", kept.get("webhook-signature"));
        assertEquals(SPEC_ID, kept.get("webhook-id"));
        assertEquals(SPEC_TIMESTAMP, kept.get("webhook-timestamp"));
        assertEquals("application/json", kept.get("content-type"));
    }

    @Test
    void acceptsWhenOneOfSeveralSpaceSeparatedSignaturesMatches() throws RejectedDelivery {
        var provider = new StandardWebhooks();
        var headers = specHeaders();
        String other = sign("whsec_" + Base64.getEncoder().encodeToString(new byte[24]), SPEC_ID, SPEC_TIMESTAMP,
                SPEC_PAYLOAD);
        headers.put("webhook-signature", other + " " + SPEC_SIGNATURE + "  v1,AAAA");

        assertEquals(SPEC_ID,
                provider.verify(delivery(headers, SPEC_PAYLOAD, SPEC_NOW), source(provider, SPEC_SECRET)).eventId());
    }

    @Test
    void ignoresAsymmetricV1aEntries() throws RejectedDelivery {
        var provider = new StandardWebhooks();
        var headers = specHeaders();
        headers.put("webhook-signature", "v1a,hnO3f9T8Ytu9HwrXslvumlUpqtNVqkhqw/enGzPCXe5BdqzCInXqYXFymVJaA7AZdpXwVLPo3mNl8EM+m7TBAg== "
                + SPEC_SIGNATURE);

        assertEquals(SPEC_ID,
                provider.verify(delivery(headers, SPEC_PAYLOAD, SPEC_NOW), source(provider, SPEC_SECRET)).eventId());
    }

    @Test
    void acceptsSignatureByTheSecondConfiguredSecret() throws RejectedDelivery {
        var provider = new StandardWebhooks();
        String previous = "whsec_" + Base64.getEncoder().encodeToString("previous-secret-24-bytes".getBytes(
                StandardCharsets.US_ASCII));

        assertEquals(SPEC_ID, provider.verify(delivery(specHeaders(), SPEC_PAYLOAD, SPEC_NOW),
                source(provider, previous, SPEC_SECRET)).eventId());
    }

    @Test
    void rejectsMissingSignatureHeader() {
        var provider = new StandardWebhooks();
        var headers = specHeaders();
        headers.remove("webhook-signature");

        assertEquals(Rejection.MISSING_SIGNATURE,
                rejection(provider, delivery(headers, SPEC_PAYLOAD, SPEC_NOW), source(provider, SPEC_SECRET)));
    }

    @Test
    void rejectsSignatureHeaderWithNoV1Entry() {
        var provider = new StandardWebhooks();
        var headers = specHeaders();
        headers.put("webhook-signature", SPEC_SIGNATURE.replace("v1,", "v1a,"));

        assertEquals(Rejection.MALFORMED_SIGNATURE,
                rejection(provider, delivery(headers, SPEC_PAYLOAD, SPEC_NOW), source(provider, SPEC_SECRET)));
    }

    @Test
    void rejectsSignatureThatIsBareBase64WithoutVersion() {
        var provider = new StandardWebhooks();
        var headers = specHeaders();
        headers.put("webhook-signature", SPEC_SIGNATURE.substring("v1,".length()));

        assertEquals(Rejection.MALFORMED_SIGNATURE,
                rejection(provider, delivery(headers, SPEC_PAYLOAD, SPEC_NOW), source(provider, SPEC_SECRET)));
    }

    @Test
    void rejectsSignatureThatIsNotBase64() {
        var provider = new StandardWebhooks();
        var headers = specHeaders();
        headers.put("webhook-signature", "v1,not*base64!");

        assertEquals(Rejection.INVALID_SIGNATURE,
                rejection(provider, delivery(headers, SPEC_PAYLOAD, SPEC_NOW), source(provider, SPEC_SECRET)));
    }

    @Test
    void rejectsTimestamp301SecondsOld() {
        var provider = new StandardWebhooks();

        assertEquals(Rejection.TIMESTAMP_OUT_OF_TOLERANCE, rejection(provider,
                delivery(specHeaders(), SPEC_PAYLOAD, SPEC_NOW.plusSeconds(301)), source(provider, SPEC_SECRET)));
    }

    @Test
    void rejectsTimestamp301SecondsInTheFuture() {
        var provider = new StandardWebhooks();

        assertEquals(Rejection.TIMESTAMP_OUT_OF_TOLERANCE, rejection(provider,
                delivery(specHeaders(), SPEC_PAYLOAD, SPEC_NOW.minusSeconds(301)), source(provider, SPEC_SECRET)));
    }

    @Test
    void acceptsTimestampExactlyAtTheTolerance() throws RejectedDelivery {
        var provider = new StandardWebhooks();

        assertEquals(SPEC_ID, provider.verify(delivery(specHeaders(), SPEC_PAYLOAD, SPEC_NOW.plusSeconds(300)),
                source(provider, SPEC_SECRET)).eventId());
    }

    @Test
    void rejectsNonNumericTimestamp() {
        var provider = new StandardWebhooks();
        var headers = specHeaders();
        headers.put("webhook-timestamp", "2021-02-26T14:22:10Z");

        assertEquals(Rejection.INVALID_TIMESTAMP,
                rejection(provider, delivery(headers, SPEC_PAYLOAD, SPEC_NOW), source(provider, SPEC_SECRET)));
    }

    @Test
    void rejectsMissingTimestamp() {
        var provider = new StandardWebhooks();
        var headers = specHeaders();
        headers.remove("webhook-timestamp");

        assertEquals(Rejection.INVALID_TIMESTAMP,
                rejection(provider, delivery(headers, SPEC_PAYLOAD, SPEC_NOW), source(provider, SPEC_SECRET)));
    }

    @Test
    void rejectsMissingWebhookId() {
        var provider = new StandardWebhooks();
        var headers = specHeaders();
        headers.remove("webhook-id");

        assertEquals(Rejection.MISSING_EVENT_ID,
                rejection(provider, delivery(headers, SPEC_PAYLOAD, SPEC_NOW), source(provider, SPEC_SECRET)));
    }

    @Test
    void rejectsWebhookIdChangedAfterSigning() {
        var provider = new StandardWebhooks();
        var headers = specHeaders();
        headers.put("webhook-id", "msg_p5jXN8AQM9LWM0D4loKWxJeK");

        assertEquals(Rejection.INVALID_SIGNATURE,
                rejection(provider, delivery(headers, SPEC_PAYLOAD, SPEC_NOW), source(provider, SPEC_SECRET)));
    }

    @Test
    void rejectsTimestampChangedAfterSigning() {
        var provider = new StandardWebhooks();
        var headers = specHeaders();
        headers.put("webhook-timestamp", "1614265331");

        assertEquals(Rejection.INVALID_SIGNATURE,
                rejection(provider, delivery(headers, SPEC_PAYLOAD, SPEC_NOW), source(provider, SPEC_SECRET)));
    }

    @Test
    void rejectsBodyTamperedAfterSigning() {
        var provider = new StandardWebhooks();

        assertEquals(Rejection.INVALID_SIGNATURE, rejection(provider,
                delivery(specHeaders(), "{\"test\": 2432232315}", SPEC_NOW), source(provider, SPEC_SECRET)));
    }

    @Test
    void rejectsSignatureMadeWithAnotherSecret() {
        var provider = new StandardWebhooks();
        String other = "whsec_" + Base64.getEncoder().encodeToString("another-secret-of-24-byt".getBytes(
                StandardCharsets.US_ASCII));

        assertEquals(Rejection.INVALID_SIGNATURE,
                rejection(provider, delivery(specHeaders(), SPEC_PAYLOAD, SPEC_NOW), source(provider, other)));
    }

    @Test
    void rejectsSignedBodyThatIsNotAJsonObject() {
        var provider = new StandardWebhooks();
        String body = "[1,2,3]";
        var headers = specHeaders();
        headers.put("webhook-signature", sign(SPEC_SECRET, SPEC_ID, SPEC_TIMESTAMP, body));

        assertEquals(Rejection.INVALID_PAYLOAD,
                rejection(provider, delivery(headers, body, SPEC_NOW), source(provider, SPEC_SECRET)));
    }

    @Test
    void isRegisteredUnderTheNameStandardWebhooks() {
        assertEquals(StandardWebhooks.class, Providers.byName("standard-webhooks").orElseThrow().getClass());
    }
}
