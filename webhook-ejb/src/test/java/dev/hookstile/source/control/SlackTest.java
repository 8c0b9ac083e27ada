package dev.hookstile.source.control;

import dev.hookstile.source.Delivery;
import dev.hookstile.source.RejectedDelivery;
import dev.hookstile.source.Rejection;
import dev.hookstile.source.VerifiedDelivery;
import dev.hookstile.source.Source;
import dev.hookstile.source.SourceBuilder;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SlackTest {

    /*
     * The worked example from Slack's "Verifying requests from Slack"
     * (api.slack.com/authentication/verifying-requests-from-slack). It signs a slash command's form body, which this
     * provider refuses after the signature check, so the tests below show that it passes the check and fails only
     * on the payload.
     */
    private static final String DOCS_SECRET = "8f742231b10e8888abcd99yyyzzz85a5";
    private static final String DOCS_TIMESTAMP = "1531420618";
    private static final String DOCS_BODY = "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow"
            + "&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner"
            + "&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J"
            + "%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN"
            + "&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c";
    private static final String DOCS_SIGNATURE =
            "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503";

    private static final String SECRET = "5f1b7c0d9e2a4b6c8d0e1f2a3b4c5d6e";
    private static final long SIGNED_AT = 1_735_689_600L; // 2025-01-01T00:00:00Z
    /** Shaped like the event_callback example in Slack's Events API docs. */
    private static final String EVENT = "{\"token\":\"XXYYZZ\",\"team_id\":\"T123ABC456\","
            + "\"api_app_id\":\"A123ABC456\","
            + "\"event\":{\"type\":\"app_mention\",\"user\":\"U123ABC456\",\"text\":\"Caf\u00e9 \u20ac5\","
            + "\"event_id\":\"EvNested\",\"event_ts\":\"1735689600.000100\"},"
            + "\"type\":\"event_callback\",\"authed_users\":[\"U123ABC456\"],"
            + "\"event_id\":\"Ev08MFMKH6\",\"event_time\":1735689600}";
    private static final String URL_VERIFICATION = "{\"token\":\"Jhj5dZrVaK7ZwHHjRyZWjbDl\","
            + "\"challenge\":\"3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P\",\"type\":\"url_verification\"}";

    private static Source source(Slack slack, String... secrets) {
        List<byte[]> keys = Arrays.stream(secrets).map(slack::decodeSecret).toList();
        return SourceBuilder.source("slack", slack).secrets(keys).tolerance(Duration.ofSeconds(300)).build();
    }

    private static Map<String, String> headers(String signature, String timestamp) {
        var headers = new HashMap<String, String>();
        headers.put("X-Slack-Signature", signature);
        headers.put("X-Slack-Request-Timestamp", timestamp);
        headers.put("Content-Type", "application/json");
        return headers;
    }

    private static Map<String, String> signed(String secret, long timestamp, String body) {
        return headers(sign(secret, Long.toString(timestamp), body), Long.toString(timestamp));
    }

    private static String sign(String secret, String timestamp, String body) {
        return Slack.sign(secret.getBytes(StandardCharsets.UTF_8), timestamp, body.getBytes(StandardCharsets.UTF_8));
    }

    private static Delivery delivery(Map<String, String> headers, String body, Instant receivedAt) {
        var lookup = new TreeMap<String, String>(String.CASE_INSENSITIVE_ORDER);
        headers.forEach((name, value) -> {
            if (value != null) {
                lookup.put(name, value);
            }
        });
        return new Delivery(lookup::get, body.getBytes(StandardCharsets.UTF_8), receivedAt);
    }

    private static Delivery delivery(Map<String, String> headers, String body) {
        return delivery(headers, body, Instant.ofEpochSecond(SIGNED_AT));
    }

    private static Delivery docsDelivery(String body) {
        var headers = headers(DOCS_SIGNATURE, DOCS_TIMESTAMP);
        headers.put("Content-Type", "application/x-www-form-urlencoded");
        return delivery(headers, body, Instant.ofEpochSecond(Long.parseLong(DOCS_TIMESTAMP)));
    }

    private static RejectedDelivery rejected(Slack slack, Delivery delivery, Source source) {
        return assertThrows(RejectedDelivery.class, () -> slack.verify(delivery, source));
    }

    private static Rejection rejection(Slack slack, Delivery delivery, Source source) {
        return rejected(slack, delivery, source).reason();
    }

    @Test
    void signsSlacksPublishedExampleAsSlackDoes() {
        assertEquals(DOCS_SIGNATURE, sign(DOCS_SECRET, DOCS_TIMESTAMP, DOCS_BODY));
    }

    @Test
    void slacksPublishedExamplePassesTheSignatureCheckAndIsRefusedOnlyAsAForm() {
        var slack = new Slack();

        RejectedDelivery rejected = rejected(slack, docsDelivery(DOCS_BODY), source(slack, DOCS_SECRET));

        assertEquals(Rejection.INVALID_PAYLOAD, rejected.reason());
        assertTrue(rejected.detail().contains("form"), rejected.detail());
    }

    @Test
    void slacksPublishedExampleWithOneByteChangedFailsTheSignatureCheck() {
        var slack = new Slack();

        assertEquals(Rejection.INVALID_SIGNATURE, rejection(slack,
                docsDelivery(DOCS_BODY.replace("roadrunner", "roadrunnes")), source(slack, DOCS_SECRET)));
    }

    @Test
    void extractsTheEventIdAndTheInnerEventType() throws RejectedDelivery {
        var slack = new Slack();

        VerifiedDelivery verified = slack.verify(delivery(signed(SECRET, SIGNED_AT, EVENT), EVENT),
                source(slack, SECRET));

        assertEquals("Ev08MFMKH6", verified.eventId());
        assertEquals("app_mention", verified.type());
        assertEquals(1, verified.events().size());
        assertNull(verified.answer());
    }

    @Test
    void fallsBackToTheEnvelopeTypeWithoutAnInnerEvent() throws RejectedDelivery {
        var slack = new Slack();
        String body = "{\"type\":\"app_rate_limited\",\"event_id\":\"Ev1\",\"minute_rate_limited\":1735689600}";

        assertEquals("app_rate_limited",
                slack.verify(delivery(signed(SECRET, SIGNED_AT, body), body), source(slack, SECRET)).type());
    }

    @Test
    void ignoresAnEventIdNestedInsideTheEvent() {
        var slack = new Slack();
        String body = "{\"type\":\"event_callback\",\"event\":{\"type\":\"message\",\"event_id\":\"EvNested\"}}";

        assertEquals(Rejection.MISSING_EVENT_ID,
                rejection(slack, delivery(signed(SECRET, SIGNED_AT, body), body), source(slack, SECRET)));
    }

    @Test
    void rejectsEmptyEventId() {
        var slack = new Slack();
        String body = "{\"type\":\"event_callback\",\"event_id\":\"\",\"event\":{\"type\":\"message\"}}";

        assertEquals(Rejection.MISSING_EVENT_ID,
                rejection(slack, delivery(signed(SECRET, SIGNED_AT, body), body), source(slack, SECRET)));
    }

    @Test
    void answersUrlVerificationWithTheChallengeAndQueuesNothing() throws RejectedDelivery {
        var slack = new Slack();

        VerifiedDelivery verified = slack.verify(delivery(signed(SECRET, SIGNED_AT, URL_VERIFICATION),
                URL_VERIFICATION), source(slack, SECRET));

        assertTrue(verified.events().isEmpty());
        assertEquals(200, verified.answer().status());
        assertEquals("application/json", verified.answer().mediaType());
        assertEquals("{\"challenge\":\"3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P\"}",
                verified.answer().body());
    }

    @Test
    void encodesAChallengeThatNeedsEscapingAsJson() throws RejectedDelivery {
        var slack = new Slack();
        String challenge = "a\"b\\c</script>\u00e9\u2028";
        String body = "{\"type\":\"url_verification\",\"challenge\":\"a\\\"b\\\\c</script>\u00e9\\u2028\"}";

        String answer = slack.verify(delivery(signed(SECRET, SIGNED_AT, body), body), source(slack, SECRET))
                .answer().body();

        JsonObject parsed = Json.createReader(new StringReader(answer)).readObject();
        assertEquals(1, parsed.size());
        assertEquals(challenge, parsed.getString("challenge"));
    }

    @Test
    void rejectsUrlVerificationWithoutChallenge() {
        var slack = new Slack();
        String body = "{\"token\":\"Jhj5dZrVaK7ZwHHjRyZWjbDl\",\"type\":\"url_verification\"}";

        assertEquals(Rejection.INVALID_PAYLOAD,
                rejection(slack, delivery(signed(SECRET, SIGNED_AT, body), body), source(slack, SECRET)));
    }

    @Test
    void doesNotAnswerUrlVerificationWithABadSignature() {
        var slack = new Slack();

        assertEquals(Rejection.INVALID_SIGNATURE, rejection(slack,
                delivery(signed("someone-else", SIGNED_AT, URL_VERIFICATION), URL_VERIFICATION),
                source(slack, SECRET)));
    }

    @Test
    void doesNotAnswerAStaleUrlVerification() {
        var slack = new Slack();

        assertEquals(Rejection.TIMESTAMP_OUT_OF_TOLERANCE, rejection(slack,
                delivery(signed(SECRET, SIGNED_AT, URL_VERIFICATION), URL_VERIFICATION,
                        Instant.ofEpochSecond(SIGNED_AT + 301)), source(slack, SECRET)));
    }

    @Test
    void retainsSlacksHeadersLowerCasedWithTheSignatureRedacted() throws RejectedDelivery {
        var slack = new Slack();
        var headers = signed(SECRET, SIGNED_AT, EVENT);
        headers.put("X-Slack-Retry-Num", "1");
        headers.put("X-Slack-Retry-Reason", "http_timeout");
        headers.put("User-Agent", "Slackbot 1.0 (+https://api.slack.com/robots)");
        headers.put("Authorization", "Bearer not-to-be-kept");
        String signature = headers.get("X-Slack-Signature");

        Map<String, String> kept = slack.verify(delivery(headers, EVENT), source(slack, SECRET)).headers();

        assertEquals("[redacted]", kept.get("x-slack-signature"));
        assertEquals(Long.toString(SIGNED_AT), kept.get("x-slack-request-timestamp"));
        assertEquals("1", kept.get("x-slack-retry-num"));
        assertEquals("http_timeout", kept.get("x-slack-retry-reason"));
        assertEquals("application/json", kept.get("content-type"));
        assertEquals("Slackbot 1.0 (+https://api.slack.com/robots)", kept.get("user-agent"));
        assertFalse(kept.containsKey("authorization"));
        assertFalse(kept.values().stream().anyMatch(v -> v.contains(signature.substring(3, 15))));
    }

    @Test
    void acceptsSignatureByTheSecondConfiguredSecret() throws RejectedDelivery {
        var slack = new Slack();

        assertEquals("Ev08MFMKH6", slack.verify(delivery(signed(SECRET, SIGNED_AT, EVENT), EVENT),
                source(slack, "previous-signing-secret", SECRET)).eventId());
    }

    @Test
    void acceptsUpperCaseHexDigits() throws RejectedDelivery {
        var slack = new Slack();
        var headers = signed(SECRET, SIGNED_AT, EVENT);
        headers.put("X-Slack-Signature", "v0=" + headers.get("X-Slack-Signature").substring(3).toUpperCase());

        assertEquals("Ev08MFMKH6", slack.verify(delivery(headers, EVENT), source(slack, SECRET)).eventId());
    }

    @Test
    void rejectsSignatureMadeWithAnotherSecret() {
        var slack = new Slack();

        assertEquals(Rejection.INVALID_SIGNATURE, rejection(slack,
                delivery(signed("someone-else", SIGNED_AT, EVENT), EVENT), source(slack, SECRET, "another")));
    }

    @Test
    void rejectsBodyWithOneByteChanged() {
        var slack = new Slack();

        assertEquals(Rejection.INVALID_SIGNATURE, rejection(slack,
                delivery(signed(SECRET, SIGNED_AT, EVENT), EVENT.replace("Ev08MFMKH6", "Ev08MFMKH7")),
                source(slack, SECRET)));
    }

    @Test
    void rejectsSignatureWithOneDigitChanged() {
        var slack = new Slack();
        var headers = signed(SECRET, SIGNED_AT, EVENT);
        String signature = headers.get("X-Slack-Signature");
        char last = signature.charAt(signature.length() - 1);
        headers.put("X-Slack-Signature", signature.substring(0, signature.length() - 1) + (last == '0' ? '1' : '0'));

        assertEquals(Rejection.INVALID_SIGNATURE, rejection(slack, delivery(headers, EVENT), source(slack, SECRET)));
    }

    @Test
    void rejectsTimestampChangedAfterSigning() {
        var slack = new Slack();
        var headers = signed(SECRET, SIGNED_AT, EVENT);
        headers.put("X-Slack-Request-Timestamp", Long.toString(SIGNED_AT + 1));

        assertEquals(Rejection.INVALID_SIGNATURE, rejection(slack, delivery(headers, EVENT), source(slack, SECRET)));
    }

    @Test
    void rejectsMissingSignatureHeader() {
        var slack = new Slack();
        var headers = signed(SECRET, SIGNED_AT, EVENT);
        headers.remove("X-Slack-Signature");

        assertEquals(Rejection.MISSING_SIGNATURE, rejection(slack, delivery(headers, EVENT), source(slack, SECRET)));
    }

    @Test
    void rejectsSignatureWithoutTheV0Prefix() {
        var slack = new Slack();
        var headers = signed(SECRET, SIGNED_AT, EVENT);
        headers.put("X-Slack-Signature", headers.get("X-Slack-Signature").substring(3));

        assertEquals(Rejection.MALFORMED_SIGNATURE, rejection(slack, delivery(headers, EVENT), source(slack, SECRET)));
    }

    @Test
    void rejectsSignatureWithAnotherVersion() {
        var slack = new Slack();
        var headers = signed(SECRET, SIGNED_AT, EVENT);
        headers.put("X-Slack-Signature", headers.get("X-Slack-Signature").replace("v0=", "v1="));

        assertEquals(Rejection.MALFORMED_SIGNATURE, rejection(slack, delivery(headers, EVENT), source(slack, SECRET)));
    }

    @Test
    void rejectsSignatureWithNonHexDigits() {
        var slack = new Slack();

        assertEquals(Rejection.MALFORMED_SIGNATURE, rejection(slack,
                delivery(headers("v0=" + "g".repeat(64), Long.toString(SIGNED_AT)), EVENT), source(slack, SECRET)));
    }

    @Test
    void rejectsSignatureThatIsTooShort() {
        var slack = new Slack();
        var headers = signed(SECRET, SIGNED_AT, EVENT);
        headers.put("X-Slack-Signature", headers.get("X-Slack-Signature").substring(0, 65));

        assertEquals(Rejection.MALFORMED_SIGNATURE, rejection(slack, delivery(headers, EVENT), source(slack, SECRET)));
    }

    @Test
    void rejectsEmptySignature() {
        var slack = new Slack();

        assertEquals(Rejection.MALFORMED_SIGNATURE, rejection(slack,
                delivery(headers("", Long.toString(SIGNED_AT)), EVENT), source(slack, SECRET)));
    }

    @Test
    void rejectsMissingTimestamp() {
        var slack = new Slack();
        var headers = signed(SECRET, SIGNED_AT, EVENT);
        headers.remove("X-Slack-Request-Timestamp");

        assertEquals(Rejection.INVALID_TIMESTAMP, rejection(slack, delivery(headers, EVENT), source(slack, SECRET)));
    }

    @Test
    void rejectsNonNumericTimestamp() {
        var slack = new Slack();
        String timestamp = "2025-01-01T00:00:00Z";

        assertEquals(Rejection.INVALID_TIMESTAMP, rejection(slack,
                delivery(headers(sign(SECRET, timestamp, EVENT), timestamp), EVENT), source(slack, SECRET)));
    }

    @Test
    void rejectsTimestampInMilliseconds() {
        var slack = new Slack();
        long millis = SIGNED_AT * 1000;

        assertEquals(Rejection.INVALID_TIMESTAMP,
                rejection(slack, delivery(signed(SECRET, millis, EVENT), EVENT), source(slack, SECRET)));
    }

    @Test
    void rejectsTimestamp301SecondsOld() {
        var slack = new Slack();

        assertEquals(Rejection.TIMESTAMP_OUT_OF_TOLERANCE, rejection(slack,
                delivery(signed(SECRET, SIGNED_AT, EVENT), EVENT, Instant.ofEpochSecond(SIGNED_AT + 301)),
                source(slack, SECRET)));
    }

    @Test
    void rejectsTimestamp301SecondsInTheFuture() {
        var slack = new Slack();

        assertEquals(Rejection.TIMESTAMP_OUT_OF_TOLERANCE, rejection(slack,
                delivery(signed(SECRET, SIGNED_AT, EVENT), EVENT, Instant.ofEpochSecond(SIGNED_AT - 301)),
                source(slack, SECRET)));
    }

    @Test
    void acceptsTimestampExactlyAtTheTolerance() throws RejectedDelivery {
        var slack = new Slack();

        assertEquals("Ev08MFMKH6", slack.verify(delivery(signed(SECRET, SIGNED_AT, EVENT), EVENT,
                Instant.ofEpochSecond(SIGNED_AT + 300)), source(slack, SECRET)).eventId());
    }

    @Test
    void rejectsSignedBodyThatIsAJsonArray() {
        var slack = new Slack();
        String body = "[" + EVENT + "]";

        assertEquals(Rejection.INVALID_PAYLOAD,
                rejection(slack, delivery(signed(SECRET, SIGNED_AT, body), body), source(slack, SECRET)));
    }

    @Test
    void rejectsSignedBodyTruncatedInsideTheEvent() {
        var slack = new Slack();
        String body = EVENT.substring(0, EVENT.indexOf("\"user\""));

        assertEquals(Rejection.INVALID_PAYLOAD,
                rejection(slack, delivery(signed(SECRET, SIGNED_AT, body), body), source(slack, SECRET)));
    }
}
