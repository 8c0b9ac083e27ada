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
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ConfiguredHmacTest {

    /** RFC 4231 and RFC 2202, test case 2: key "Jefe", data "what do ya want for nothing?". */
    private static final String RFC_KEY = "Jefe";
    private static final String RFC_DATA = "what do ya want for nothing?";
    private static final String RFC_SHA1 = "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79";
    private static final String RFC_SHA256 = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843";
    private static final String RFC_SHA512 = "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554"
            + "9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737";

    private static final String BODY = "{\"data\":{\"event_id\":\"evt_nested\",\"kind\":\"order.paid\"},"
            + "\"id\":\"evt_1\",\"type\":\"order.created\"}";

    private static final Map<String, String> MINIMAL = Map.of(
            "signature-header", "X-Signature",
            "event-id-header", "X-Event-Id");

    private static Map<String, String> settings(Map<String, String> base, String... more) {
        var settings = new HashMap<>(base);
        for (int i = 0; i < more.length; i += 2) {
            settings.put(more[i], more[i + 1]);
        }
        return settings;
    }

    private static Source source(Map<String, String> settings, String... secrets) {
        var provider = new ConfiguredHmac();
        List<byte[]> keys = Arrays.stream(secrets).map(provider::decodeSecret).toList();
        return SourceBuilder.source("orders", provider)
                .secrets(keys).tolerance(Duration.ofSeconds(300)).settings(settings).build();
    }

    private static Delivery delivery(Map<String, String> headers, String body) {
        var lookup = new TreeMap<String, String>(String.CASE_INSENSITIVE_ORDER);
        lookup.putAll(headers);
        return new Delivery(lookup::get, body.getBytes(StandardCharsets.UTF_8), Instant.now());
    }

    private static byte[] mac(String algorithm, String secret, String body) {
        try {
            Mac mac = Mac.getInstance(algorithm);
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), algorithm));
            return mac.doFinal(body.getBytes(StandardCharsets.UTF_8));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String hex256(String secret, String body) {
        return HexFormat.of().formatHex(mac("HmacSHA256", secret, body));
    }

    private static VerifiedDelivery verify(Map<String, String> settings, Map<String, String> headers, String body,
                                           String... secrets) throws RejectedDelivery {
        return new ConfiguredHmac().verify(delivery(headers, body), source(settings, secrets));
    }

    private static Rejection rejection(Map<String, String> settings, Map<String, String> headers, String body,
                                       String... secrets) {
        return assertThrows(RejectedDelivery.class, () -> verify(settings, headers, body, secrets)).reason();
    }

    // --- published vectors

    @Test
    void acceptsTheRfcVectorWithTheDefaultsSha256AndHex() throws RejectedDelivery {
        VerifiedDelivery verified = verify(MINIMAL, Map.of("X-Signature", RFC_SHA256, "X-Event-Id", "e1"), RFC_DATA,
                RFC_KEY);

        assertEquals("e1", verified.eventId());
        assertEquals("", verified.type());
    }

    @Test
    void acceptsTheRfcVectorWithSha1() throws RejectedDelivery {
        assertEquals("e1", verify(settings(MINIMAL, "algorithm", "sha1"),
                Map.of("X-Signature", RFC_SHA1, "X-Event-Id", "e1"), RFC_DATA, RFC_KEY).eventId());
    }

    @Test
    void acceptsTheRfcVectorWithSha512() throws RejectedDelivery {
        assertEquals("e1", verify(settings(MINIMAL, "algorithm", "sha512"),
                Map.of("X-Signature", RFC_SHA512, "X-Event-Id", "e1"), RFC_DATA, RFC_KEY).eventId());
    }

    @Test
    void acceptsTheRfcVectorInBase64() throws RejectedDelivery {
        String base64 = Base64.getEncoder().encodeToString(HexFormat.of().parseHex(RFC_SHA256));

        assertEquals("e1", verify(settings(MINIMAL, "encoding", "base64"),
                Map.of("X-Signature", base64, "X-Event-Id", "e1"), RFC_DATA, RFC_KEY).eventId());
    }

    @Test
    void acceptsGitHubsPublishedExampleWhenConfiguredLikeGitHub() throws RejectedDelivery {
        var gitHubLike = Map.of("signature-header", "X-Hub-Signature-256", "signature-prefix", "sha256=",
                "event-id-header", "X-GitHub-Delivery", "type-header", "X-GitHub-Event");

        VerifiedDelivery verified = verify(gitHubLike, Map.of(
                "X-Hub-Signature-256", "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
                "X-GitHub-Delivery", "72d3162e", "X-GitHub-Event", "push"), "Hello, World!",
                "It's a Secret to Everybody");

        assertEquals("72d3162e", verified.eventId());
        assertEquals("push", verified.type());
    }

    @Test
    void acceptsUpperCaseHexDigits() throws RejectedDelivery {
        assertEquals("e1", verify(MINIMAL, Map.of("X-Signature", RFC_SHA256.toUpperCase(), "X-Event-Id", "e1"),
                RFC_DATA, RFC_KEY).eventId());
    }

    @Test
    void acceptsSettingValuesInUpperCase() throws RejectedDelivery {
        String base64 = Base64.getEncoder().encodeToString(HexFormat.of().parseHex(RFC_SHA512));

        assertEquals("e1", verify(settings(MINIMAL, "algorithm", "SHA512", "encoding", "Base64"),
                Map.of("X-Signature", base64, "X-Event-Id", "e1"), RFC_DATA, RFC_KEY).eventId());
    }

    // --- tampering and malformed signatures

    @Test
    void rejectsABodyChangedAfterSigning() {
        assertEquals(Rejection.INVALID_SIGNATURE, rejection(MINIMAL,
                Map.of("X-Signature", RFC_SHA256, "X-Event-Id", "e1"), RFC_DATA + " ", RFC_KEY));
    }

    @Test
    void rejectsASignatureMadeWithAnotherSecret() {
        assertEquals(Rejection.INVALID_SIGNATURE, rejection(MINIMAL,
                Map.of("X-Signature", RFC_SHA256, "X-Event-Id", "e1"), RFC_DATA, "jefe"));
    }

    @Test
    void rejectsASignatureWithOneDigitChanged() {
        String changed = RFC_SHA256.substring(0, 63) + "4";

        assertEquals(Rejection.INVALID_SIGNATURE, rejection(MINIMAL,
                Map.of("X-Signature", changed, "X-Event-Id", "e1"), RFC_DATA, RFC_KEY));
    }

    @Test
    void rejectsASignatureByAnotherAlgorithmOfTheSameLength() {
        // Same key and body, HMAC-SHA256 expected: a SHA-512 MAC cut to 32 bytes must not pass.
        String sha512Cut = RFC_SHA512.substring(0, 64);

        assertEquals(Rejection.INVALID_SIGNATURE, rejection(MINIMAL,
                Map.of("X-Signature", sha512Cut, "X-Event-Id", "e1"), RFC_DATA, RFC_KEY));
    }

    @Test
    void rejectsAMissingSignatureHeader() {
        assertEquals(Rejection.MISSING_SIGNATURE, rejection(MINIMAL, Map.of("X-Event-Id", "e1"), RFC_DATA, RFC_KEY));
    }

    @Test
    void rejectsASignatureInTheWrongHeader() {
        assertEquals(Rejection.MISSING_SIGNATURE, rejection(MINIMAL,
                Map.of("X-Hub-Signature-256", RFC_SHA256, "X-Event-Id", "e1"), RFC_DATA, RFC_KEY));
    }

    @Test
    void rejectsAnEmptySignature() {
        assertEquals(Rejection.MALFORMED_SIGNATURE, rejection(MINIMAL,
                Map.of("X-Signature", "", "X-Event-Id", "e1"), RFC_DATA, RFC_KEY));
    }

    @Test
    void rejectsHexOfTheWrongLength() {
        assertEquals(Rejection.MALFORMED_SIGNATURE, rejection(MINIMAL,
                Map.of("X-Signature", RFC_SHA1, "X-Event-Id", "e1"), RFC_DATA, RFC_KEY));
    }

    @Test
    void rejectsNonHexDigits() {
        assertEquals(Rejection.MALFORMED_SIGNATURE, rejection(MINIMAL,
                Map.of("X-Signature", "zz" + RFC_SHA256.substring(2), "X-Event-Id", "e1"), RFC_DATA, RFC_KEY));
    }

    @Test
    void rejectsHexWhenBase64IsConfigured() {
        assertEquals(Rejection.MALFORMED_SIGNATURE, rejection(settings(MINIMAL, "encoding", "base64"),
                Map.of("X-Signature", RFC_SHA256, "X-Event-Id", "e1"), RFC_DATA, RFC_KEY));
    }

    @Test
    void rejectsBase64ThatIsNotBase64() {
        assertEquals(Rejection.MALFORMED_SIGNATURE, rejection(settings(MINIMAL, "encoding", "base64"),
                Map.of("X-Signature", "W9zBRr9gdU5qBCQmCJV1x1oAPwidJzmDnexYuWTsOEM!", "X-Event-Id", "e1"),
                RFC_DATA, RFC_KEY));
    }

    @Test
    void rejectsASignatureWithoutTheConfiguredPrefix() {
        assertEquals(Rejection.MALFORMED_SIGNATURE, rejection(settings(MINIMAL, "signature-prefix", "sha256="),
                Map.of("X-Signature", RFC_SHA256, "X-Event-Id", "e1"), RFC_DATA, RFC_KEY));
    }

    @Test
    void rejectsASignatureWithAnotherPrefix() {
        assertEquals(Rejection.MALFORMED_SIGNATURE, rejection(settings(MINIMAL, "signature-prefix", "sha256="),
                Map.of("X-Signature", "sha1=" + RFC_SHA256, "X-Event-Id", "e1"), RFC_DATA, RFC_KEY));
    }

    @Test
    void rejectsAPrefixWhenNoneIsConfigured() {
        assertEquals(Rejection.MALFORMED_SIGNATURE, rejection(MINIMAL,
                Map.of("X-Signature", "sha256=" + RFC_SHA256, "X-Event-Id", "e1"), RFC_DATA, RFC_KEY));
    }

    // --- rotation

    @Test
    void acceptsTheOldSecretDuringRotation() throws RejectedDelivery {
        assertEquals("e1", verify(MINIMAL, Map.of("X-Signature", hex256("old", BODY), "X-Event-Id", "e1"), BODY,
                "old", "new").eventId());
    }

    @Test
    void acceptsTheNewSecretDuringRotation() throws RejectedDelivery {
        assertEquals("e1", verify(MINIMAL, Map.of("X-Signature", hex256("new", BODY), "X-Event-Id", "e1"), BODY,
                "old", "new").eventId());
    }

    @Test
    void rejectsNeitherSecretDuringRotation() {
        assertEquals(Rejection.INVALID_SIGNATURE, rejection(MINIMAL,
                Map.of("X-Signature", hex256("third", BODY), "X-Event-Id", "e1"), BODY, "old", "new"));
    }

    // --- event id and type

    private static final Map<String, String> BY_POINTER = Map.of(
            "signature-header", "X-Signature",
            "event-id-pointer", "/id",
            "type-pointer", "/type");

    @Test
    void readsIdAndTypeFromTopLevelPointers() throws RejectedDelivery {
        VerifiedDelivery verified = verify(BY_POINTER, Map.of("X-Signature", hex256("s", BODY)), BODY, "s");

        assertEquals("evt_1", verified.eventId());
        assertEquals("order.created", verified.type());
    }

    @Test
    void readsIdAndTypeFromNestedPointers() throws RejectedDelivery {
        var nested = settings(BY_POINTER, "event-id-pointer", "/data/event_id", "type-pointer", "/data/kind");

        VerifiedDelivery verified = verify(nested, Map.of("X-Signature", hex256("s", BODY)), BODY, "s");

        assertEquals("evt_nested", verified.eventId());
        assertEquals("order.paid", verified.type());
    }

    @Test
    void readsTheTypeFromAHeader() throws RejectedDelivery {
        var typeHeader = Map.of("signature-header", "X-Signature", "event-id-pointer", "/id",
                "type-header", "X-Event-Type");

        VerifiedDelivery verified = verify(typeHeader,
                Map.of("X-Signature", hex256("s", BODY), "X-Event-Type", "order.shipped"), BODY, "s");

        assertEquals("evt_1", verified.eventId());
        assertEquals("order.shipped", verified.type());
    }

    @Test
    void givesAnEmptyTypeWhenTheTypeHeaderIsMissing() throws RejectedDelivery {
        assertEquals("", verify(settings(MINIMAL, "type-header", "X-Event-Type"),
                Map.of("X-Signature", hex256("s", BODY), "X-Event-Id", "e1"), BODY, "s").type());
    }

    @Test
    void givesAnEmptyTypeWhenTheTypePointerFindsNothing() throws RejectedDelivery {
        assertEquals("", verify(settings(BY_POINTER, "type-pointer", "/missing"),
                Map.of("X-Signature", hex256("s", BODY)), BODY, "s").type());
    }

    @Test
    void doesNotNeedJsonWhenTheIdComesFromAHeader() throws RejectedDelivery {
        assertEquals("e1", verify(MINIMAL, Map.of("X-Signature", hex256("s", "a=1"), "X-Event-Id", "e1"), "a=1",
                "s").eventId());
    }

    @Test
    void rejectsABodyThatIsNotJsonWhenTheIdIsAPointer() {
        assertEquals(Rejection.INVALID_PAYLOAD,
                rejection(BY_POINTER, Map.of("X-Signature", hex256("s", "id=evt_1")), "id=evt_1", "s"));
    }

    @Test
    void rejectsAJsonBodyWithoutTheIdPointer() {
        String body = "{\"type\":\"order.created\"}";

        assertEquals(Rejection.MISSING_EVENT_ID,
                rejection(BY_POINTER, Map.of("X-Signature", hex256("s", body)), body, "s"));
    }

    @Test
    void rejectsAJsonBodyWhoseIdIsAnObject() {
        String body = "{\"id\":{\"value\":\"evt_1\"}}";

        assertEquals(Rejection.MISSING_EVENT_ID,
                rejection(BY_POINTER, Map.of("X-Signature", hex256("s", body)), body, "s"));
    }

    @Test
    void rejectsAMissingIdHeader() {
        assertEquals(Rejection.MISSING_EVENT_ID,
                rejection(MINIMAL, Map.of("X-Signature", hex256("s", BODY)), BODY, "s"));
    }

    @Test
    void rejectsAnEmptyIdHeader() {
        assertEquals(Rejection.MISSING_EVENT_ID,
                rejection(MINIMAL, Map.of("X-Signature", hex256("s", BODY), "X-Event-Id", ""), BODY, "s"));
    }

    @Test
    void checksTheSignatureBeforeTheEventId() {
        assertEquals(Rejection.INVALID_SIGNATURE,
                rejection(BY_POINTER, Map.of("X-Signature", hex256("s", BODY)), "not json", "s"));
    }

    // --- headers

    @Test
    void retainsTheConfiguredHeadersWithTheSignatureRedacted() throws RejectedDelivery {
        var configured = settings(MINIMAL, "type-header", "X-Event-Type");
        String signature = hex256("s", BODY);

        Map<String, String> headers = verify(configured, Map.of("x-signature", signature, "X-Event-Id", "e1",
                "X-Event-Type", "order.created", "Content-Type", "application/json", "User-Agent", "orders/2",
                "Authorization", "Bearer not-to-be-kept"), BODY, "s").headers();

        assertEquals(Map.of("x-signature", "[redacted]", "x-event-id", "e1", "x-event-type", "order.created",
                "content-type", "application/json", "user-agent", "orders/2"), headers);
        assertFalse(headers.values().stream().anyMatch(v -> v.contains(signature.substring(0, 12))));
    }

    // --- settings

    private static String refusedSetting(Map<String, String> settings) {
        return assertThrows(InvalidSetting.class, () -> new ConfiguredHmac().checkSettings(settings)).setting();
    }

    @Test
    void readsAllItsSettings() {
        assertEquals(java.util.Set.of("signature-header", "algorithm", "encoding", "signature-prefix",
                "event-id-header", "event-id-pointer", "type-header", "type-pointer"),
                new ConfiguredHmac().settingNames());
    }

    @Test
    void acceptsTheMinimalSettings() {
        assertDoesNotThrow(() -> new ConfiguredHmac().checkSettings(MINIMAL));
        assertDoesNotThrow(() -> new ConfiguredHmac().checkSettings(BY_POINTER));
    }

    @Test
    void refusesAMissingSignatureHeader() {
        assertEquals("signature-header", refusedSetting(Map.of("event-id-header", "X-Event-Id")));
    }

    @Test
    void refusesASignatureHeaderThatIsNoHeaderName() {
        assertEquals("signature-header", refusedSetting(settings(MINIMAL, "signature-header", "X Signature:")));
    }

    @Test
    void refusesAnUnknownAlgorithm() {
        InvalidSetting refused = assertThrows(InvalidSetting.class,
                () -> new ConfiguredHmac().checkSettings(settings(MINIMAL, "algorithm", "md5")));

        assertEquals("algorithm", refused.setting());
        assertEquals("must be one of sha1, sha256, sha512", refused.problem());
    }

    @Test
    void refusesAnUnknownEncoding() {
        InvalidSetting refused = assertThrows(InvalidSetting.class,
                () -> new ConfiguredHmac().checkSettings(settings(MINIMAL, "encoding", "base64url")));

        assertEquals("encoding", refused.setting());
        assertEquals("must be one of hex, base64", refused.problem());
    }

    @Test
    void refusesNeitherEventIdSetting() {
        assertEquals("event-id-header", refusedSetting(Map.of("signature-header", "X-Signature")));
    }

    @Test
    void refusesBothEventIdSettings() {
        assertEquals("event-id-pointer", refusedSetting(settings(MINIMAL, "event-id-pointer", "/id")));
    }

    @Test
    void refusesBothTypeSettings() {
        assertEquals("type-pointer",
                refusedSetting(settings(MINIMAL, "type-header", "X-Event-Type", "type-pointer", "/type")));
    }

    @Test
    void refusesAnEventIdPointerWithoutALeadingSlash() {
        assertEquals("event-id-pointer", refusedSetting(settings(BY_POINTER, "event-id-pointer", "id")));
    }

    @Test
    void refusesAPointerInUriFragmentForm() {
        assertEquals("event-id-pointer", refusedSetting(settings(BY_POINTER, "event-id-pointer", "#/id")));
    }

    @Test
    void refusesAPointerWithABadEscape() {
        assertEquals("type-pointer", refusedSetting(settings(BY_POINTER, "type-pointer", "/a~2b")));
    }

    @Test
    void refusesAnEventIdHeaderThatIsNoHeaderName() {
        assertEquals("event-id-header", refusedSetting(settings(MINIMAL, "event-id-header", "X Event Id")));
    }

    @Test
    void acceptsAPointerWithEscapes() {
        assertDoesNotThrow(() -> new ConfiguredHmac().checkSettings(
                settings(BY_POINTER, "type-pointer", "/a~1b/~0c/0")));
    }
}
