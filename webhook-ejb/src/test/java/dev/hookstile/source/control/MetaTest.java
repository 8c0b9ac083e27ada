package dev.hookstile.source.control;

import dev.hookstile.source.Answer;
import dev.hookstile.source.Delivery;
import dev.hookstile.source.InvalidSetting;
import dev.hookstile.source.RejectedDelivery;
import dev.hookstile.source.Rejection;
import dev.hookstile.source.VerifiedDelivery.EventIdentity;
import dev.hookstile.source.Source;
import dev.hookstile.source.SourceBuilder;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MetaTest {

    private static final String APP_SECRET = "e2f4b7c1d9a04f6b8c3e5a7d9f1b3c5e";
    private static final String VERIFY_TOKEN = "meatyhamhock";

    /** Meta's example incoming text message ("messages webhook reference", WhatsApp Business Platform docs). */
    private static final String FIRST_MESSAGE_ID = "wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=";
    private static final String SECOND_MESSAGE_ID = "wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RwA=";
    private static final String SENT_MESSAGE_ID = "wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBI5QTNDQTVCM0Q0Q0Q2RTY3RTcA";
    private static final String READ_MESSAGE_ID = "wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBJDQjZCMzlEQUE4OTJBMTE4RTUA";

    /**
     * A WhatsApp Cloud API batch shaped as Meta's messages and status webhook references show them: one entry whose
     * first change carries two incoming messages and whose second carries two statuses of messages we sent.
     */
    private static final String WHATSAPP_BATCH = """
            {
              "object": "whatsapp_business_account",
              "entry": [
                {
                  "id": "102290129340398",
                  "changes": [
                    {
                      "value": {
                        "messaging_product": "whatsapp",
                        "metadata": {
                          "display_phone_number": "15550783881",
                          "phone_number_id": "106540352242922"
                        },
                        "contacts": [
                          {
                            "profile": {
                              "name": "Sheena Nelson"
                            },
                            "wa_id": "16505551234"
                          }
                        ],
                        "messages": [
                          {
                            "from": "16505551234",
                            "id": "%s",
                            "timestamp": "1749416383",
                            "type": "text",
                            "text": {
                              "body": "Does it come in another color?"
                            }
                          },
                          {
                            "from": "16505551234",
                            "id": "%s",
                            "timestamp": "1749416390",
                            "type": "text",
                            "text": {
                              "body": "And in a larger size?"
                            }
                          }
                        ]
                      },
                      "field": "messages"
                    },
                    {
                      "value": {
                        "messaging_product": "whatsapp",
                        "metadata": {
                          "display_phone_number": "15550783881",
                          "phone_number_id": "106540352242922"
                        },
                        "statuses": [
                          {
                            "id": "%s",
                            "status": "sent",
                            "timestamp": "1750263773",
                            "recipient_id": "16505551234",
                            "conversation": {
                              "id": "6ceb9d929c0ec8d6e3e6f7b5a6d2c7b1",
                              "expiration_timestamp": "1750350180",
                              "origin": {
                                "type": "service"
                              }
                            },
                            "pricing": {
                              "billable": true,
                              "pricing_model": "CBP",
                              "category": "service"
                            }
                          },
                          {
                            "id": "%s",
                            "status": "read",
                            "timestamp": "1750263780",
                            "recipient_id": "16505551234"
                          }
                        ]
                      },
                      "field": "messages"
                    }
                  ]
                }
              ]
            }
            """.formatted(FIRST_MESSAGE_ID, SECOND_MESSAGE_ID, SENT_MESSAGE_ID, READ_MESSAGE_ID);

    /** Messenger, as the Messenger Platform's messages, message_deliveries and message_reads references show it. */
    private static final String MESSENGER_BATCH = """
            {"object":"page","entry":[{"id":"109876543210987","time":%d,"messaging":[
              {"sender":{"id":"6789012345678901"},"recipient":{"id":"109876543210987"},"timestamp":1458692752478,
               "message":{"mid":"m_1457764197618:41d102a3e1ae206a38","text":"hello, world!"}},
              {"sender":{"id":"6789012345678901"},"recipient":{"id":"109876543210987"},
               "delivery":{"mids":["mid.1458668856218:ed81099e15d3f4f233"],"watermark":1458668856253}},
              {"sender":{"id":"6789012345678901"},"recipient":{"id":"109876543210987"},"timestamp":1458668856463,
               "read":{"watermark":1458668856253}}]}]}
            """.formatted(System.currentTimeMillis());

    private static final String TEMPLATE_UPDATE = "{\"field\":\"message_template_status_update\",\"value\":"
            + "{\"event\":\"APPROVED\",\"message_template_id\":594425479261596,"
            + "\"message_template_name\":\"order_confirmation\",\"message_template_language\":\"en_US\"}}";

    private static Source source(String... secrets) {
        return source("whatsapp", Map.of("verify-token", VERIFY_TOKEN), secrets);
    }

    private static Source source(String name, Map<String, String> settings, String... secrets) {
        var meta = new Meta();
        List<byte[]> keys = Arrays.stream(secrets).map(meta::decodeSecret).toList();
        return SourceBuilder.source(name, meta).secrets(keys).settings(settings).build();
    }

    private static String sign(String secret, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new AssertionError(e);
        }
    }

    private static Delivery delivery(Map<String, String> headers, byte[] body) {
        var lookup = new TreeMap<String, String>(String.CASE_INSENSITIVE_ORDER);
        lookup.putAll(headers);
        return new Delivery(lookup::get, body, Instant.now());
    }

    private static Delivery signed(byte[] body) {
        return delivery(Map.of("X-Hub-Signature-256", sign(APP_SECRET, body)), body);
    }

    private static Delivery signed(String body) {
        return signed(body.getBytes(StandardCharsets.UTF_8));
    }

    private static List<EventIdentity> events(String body) throws RejectedDelivery {
        return new Meta().verify(signed(body), source(APP_SECRET)).events();
    }

    private static RejectedDelivery rejected(Delivery delivery, Source source) {
        return assertThrows(RejectedDelivery.class, () -> new Meta().verify(delivery, source));
    }

    private static Rejection rejection(String body) {
        return rejected(signed(body), source(APP_SECRET)).reason();
    }

    private static String whatsApp(String changes) {
        return "{\"object\":\"whatsapp_business_account\",\"entry\":[{\"id\":\"102290129340398\",\"changes\":["
                + changes + "]}]}";
    }

    private static Map<String, String> handshakeQuery(String mode, String token, String challenge) {
        var query = new HashMap<String, String>();
        query.put("hub.mode", mode);
        query.put("hub.verify_token", token);
        query.put("hub.challenge", challenge);
        query.values().removeIf(java.util.Objects::isNull);
        return query;
    }

    private static RejectedDelivery refused(Map<String, String> query, Source source) {
        return assertThrows(RejectedDelivery.class, () -> new Meta().handshake(query, source));
    }

    // --- events of a batch ---

    @Test
    void turnsAWhatsAppBatchOfTwoMessagesAndTwoStatusesIntoFourEvents() throws RejectedDelivery {
        assertEquals(List.of(
                new EventIdentity(FIRST_MESSAGE_ID, "messages.message"),
                new EventIdentity(SECOND_MESSAGE_ID, "messages.message"),
                new EventIdentity(SENT_MESSAGE_ID + ":sent", "messages.status"),
                new EventIdentity(READ_MESSAGE_ID + ":read", "messages.status")), events(WHATSAPP_BATCH));
    }

    @Test
    void keysEachStatusOfTheSameMessageOnItsOwn() throws RejectedDelivery {
        String statuses = whatsApp("{\"field\":\"messages\",\"value\":{\"statuses\":["
                + "{\"id\":\"" + SENT_MESSAGE_ID + "\",\"status\":\"sent\",\"timestamp\":\"1750263773\"},"
                + "{\"id\":\"" + SENT_MESSAGE_ID + "\",\"status\":\"delivered\",\"timestamp\":\"1750263775\"}]}}");

        List<EventIdentity> events = events(statuses);

        assertEquals(2, events.size());
        assertNotEquals(events.get(0).id(), events.get(1).id());
        assertEquals(List.of(SENT_MESSAGE_ID + ":sent", SENT_MESSAGE_ID + ":delivered"),
                events.stream().map(EventIdentity::id).toList());
    }

    @Test
    void keysAStatusApartFromTheMessageItReports() throws RejectedDelivery {
        String both = whatsApp("{\"field\":\"messages\",\"value\":{"
                + "\"messages\":[{\"id\":\"" + FIRST_MESSAGE_ID + "\",\"type\":\"text\"}],"
                + "\"statuses\":[{\"id\":\"" + FIRST_MESSAGE_ID + "\",\"status\":\"read\"}]}}");

        assertEquals(List.of(FIRST_MESSAGE_ID, FIRST_MESSAGE_ID + ":read"),
                events(both).stream().map(EventIdentity::id).toList());
    }

    @Test
    void countsAnIdRepeatedWithinOneBodyOnce() throws RejectedDelivery {
        String status = "{\"field\":\"messages\",\"value\":{\"statuses\":[{\"id\":\"" + SENT_MESSAGE_ID
                + "\",\"status\":\"sent\"}]}}";

        assertEquals(List.of(new EventIdentity(SENT_MESSAGE_ID + ":sent", "messages.status")),
                events(whatsApp(status + "," + status)));
    }

    @Test
    void collectsEventsFromEveryEntry() throws RejectedDelivery {
        String body = "{\"object\":\"whatsapp_business_account\",\"entry\":["
                + "{\"id\":\"1\",\"changes\":[{\"field\":\"messages\",\"value\":{\"messages\":[{\"id\":\"wamid.A\"}]}}]},"
                + "{\"id\":\"2\",\"changes\":[{\"field\":\"messages\",\"value\":{\"messages\":[{\"id\":\"wamid.B\"}]}}]}]}";

        assertEquals(List.of("wamid.A", "wamid.B"), events(body).stream().map(EventIdentity::id).toList());
    }

    @Test
    void namesTheTypeAfterTheChangesField() throws RejectedDelivery {
        String body = whatsApp("{\"field\":\"smb_message_echoes\",\"value\":{\"messages\":[{\"id\":\"wamid.E\"}]}}");

        assertEquals("smb_message_echoes.message", events(body).get(0).type());
    }

    @Test
    void keysMessengerMessagesOnTheirMidAndOtherItemsOnTheirContent() throws RejectedDelivery {
        List<EventIdentity> events = events(MESSENGER_BATCH);

        assertEquals(3, events.size());
        assertEquals(new EventIdentity("m_1457764197618:41d102a3e1ae206a38", "messaging.message"), events.get(0));
        assertEquals("messaging.delivery", events.get(1).type());
        assertTrue(events.get(1).id().matches("109876543210987:messaging\\.delivery:[0-9a-f]{64}"), events.get(1).id());
        assertEquals("messaging.read", events.get(2).type());
        assertTrue(events.get(2).id().matches("109876543210987:messaging\\.read:[0-9a-f]{64}"), events.get(2).id());
    }

    @Test
    void keysStandbyItemsLikeMessagingItems() throws RejectedDelivery {
        String body = "{\"object\":\"page\",\"entry\":[{\"id\":\"109876543210987\",\"standby\":[{\"sender\":"
                + "{\"id\":\"678\"},\"recipient\":{\"id\":\"109876543210987\"},\"timestamp\":1,\"message\":"
                + "{\"mid\":\"m_standby\",\"text\":\"hi\"}}]}]}";

        assertEquals(List.of(new EventIdentity("m_standby", "standby.message")), events(body));
    }

    @Test
    void keysAChangeWithoutMessagesOrStatusesOnItsEntryFieldAndContent() throws RejectedDelivery {
        List<EventIdentity> events = events(whatsApp(TEMPLATE_UPDATE));

        assertEquals(1, events.size());
        assertEquals("message_template_status_update", events.get(0).type());
        assertTrue(events.get(0).id().matches("102290129340398:message_template_status_update:[0-9a-f]{64}"),
                events.get(0).id());
    }

    @Test
    void givesAContentKeyedChangeTheSameIdWhenMetaRetriesItReformattedAndRebatched() throws RejectedDelivery {
        String alone = whatsApp(TEMPLATE_UPDATE);
        String rebatched = "{\n  \"object\": \"whatsapp_business_account\",\n  \"entry\": [\n"
                + "    {\"id\": \"102290129340398\", \"changes\": [{\"field\": \"messages\", \"value\": "
                + "{\"messages\": [{\"id\": \"wamid.X\"}]}}]},\n"
                + "    {\"id\": \"102290129340398\", \"changes\": [\n      "
                + TEMPLATE_UPDATE.replace(",", ",\n        ").replace(":", ": ") + "\n    ]}\n  ]\n}";

        String first = events(alone).get(0).id();
        List<EventIdentity> retried = events(rebatched);

        assertEquals(2, retried.size());
        assertEquals(first, retried.get(1).id());
    }

    @Test
    void givesDifferentContentKeyedChangesDifferentIds() throws RejectedDelivery {
        String rejected = TEMPLATE_UPDATE.replace("APPROVED", "REJECTED");

        List<EventIdentity> events = events(whatsApp(TEMPLATE_UPDATE + "," + rejected));

        assertEquals(2, events.size());
        assertNotEquals(events.get(0).id(), events.get(1).id());
    }

    @Test
    void keysAnInstagramCommentChangeOnItsContent() throws RejectedDelivery {
        String body = "{\"object\":\"instagram\",\"entry\":[{\"id\":\"17841405822304914\",\"time\":"
                + Instant.now().getEpochSecond() + ","
                + "\"changes\":[{\"field\":\"comments\",\"value\":{\"id\":\"17865799348089039\",\"text\":\"Nice!\","
                + "\"from\":{\"id\":\"232323232\",\"username\":\"test\"},\"media\":{\"id\":\"123123123\"}}}]}]}";

        EventIdentity event = events(body).get(0);

        assertEquals("comments", event.type());
        assertTrue(event.id().startsWith("17841405822304914:comments:"), event.id());
    }

    // --- signed entry time ---

    /** A Messenger entry with one message, signed {@code age} ago, in milliseconds as Messenger writes it. */
    private static String messengerEntry(String mid, Duration age) {
        return "{\"id\":\"109876543210987\",\"time\":" + Instant.now().minus(age).toEpochMilli()
                + ",\"messaging\":[{\"sender\":{\"id\":\"1\"},\"recipient\":{\"id\":\"2\"},"
                + "\"message\":{\"mid\":\"" + mid + "\",\"text\":\"hi\"}}]}";
    }

    private static String page(String... entries) {
        return "{\"object\":\"page\",\"entry\":[" + String.join(",", entries) + "]}";
    }

    @Test
    void aBatchCapturedLongerAgoThanTheToleranceIsRefused() {
        // Retention keeps 30 days: a capture replayed after it must not find the event's id forgotten.
        String body = page(messengerEntry("m_old", Duration.ofDays(31)));

        RejectedDelivery e = rejected(signed(body), source(APP_SECRET));

        assertEquals(Rejection.TIMESTAMP_OUT_OF_TOLERANCE, e.reason());
        assertEquals(401, e.reason().status());
    }

    @Test
    void metasOwnRetriesWithinItsSevenDaysPassTheDefaultTolerance() throws RejectedDelivery {
        assertEquals(Duration.ofDays(8), new Meta().defaultTolerance());

        assertEquals(List.of("m_retried"), ids(events(page(messengerEntry("m_retried", Duration.ofDays(7))))));
    }

    @Test
    void theToleranceIsTheSources() {
        var meta = new Meta();
        var strict = SourceBuilder.source("whatsapp", meta)
                .secrets(List.of(meta.decodeSecret(APP_SECRET))).tolerance(Duration.ofHours(1)).build();

        assertEquals(Rejection.TIMESTAMP_OUT_OF_TOLERANCE,
                rejected(signed(page(messengerEntry("m_two_hours", Duration.ofHours(2)))), strict).reason());
    }

    @Test
    void onlyTheStaleEntriesOfAMixedBatchAreLeftOut() throws RejectedDelivery {
        String body = page(messengerEntry("m_stale", Duration.ofDays(40)), messengerEntry("m_fresh", Duration.ZERO));

        assertEquals(List.of("m_fresh"), ids(events(body)));
    }

    @Test
    void anEntryTimeInSecondsIsReadAsSeconds() throws RejectedDelivery {
        // Page and Instagram change entries carry seconds; read as milliseconds, now would be January 1970.
        String fresh = "{\"object\":\"page\",\"entry\":[{\"id\":\"1\",\"time\":" + Instant.now().getEpochSecond()
                + ",\"changes\":[{\"field\":\"feed\",\"value\":{\"item\":\"status\"}}]}]}";
        String stale = fresh.replace("\"time\":" + Instant.now().getEpochSecond(),
                "\"time\":" + Instant.now().minus(Duration.ofDays(9)).getEpochSecond());

        assertEquals(1, assertDoesNotThrowEvents(fresh).size());
        assertEquals(Rejection.TIMESTAMP_OUT_OF_TOLERANCE, rejection(stale));
    }

    @Test
    void entriesWithoutATimeAreNotChecked() throws RejectedDelivery {
        // WhatsApp's entries have none (its items' ids are signed; a replay is a duplicate or hits a tombstone).
        assertEquals(4, events(WHATSAPP_BATCH).size());
        assertEquals(1, events(page("{\"id\":\"1\",\"time\":\"yesterday\",\"messaging\":[{\"sender\":{\"id\":\"1\"},"
                + "\"message\":{\"mid\":\"m_untimed\"}}]}")).size());
    }

    private static List<String> ids(List<EventIdentity> events) {
        return events.stream().map(EventIdentity::id).toList();
    }

    private static List<EventIdentity> assertDoesNotThrowEvents(String body) {
        return org.junit.jupiter.api.Assertions.assertDoesNotThrow(() -> events(body));
    }

    // --- signature ---

    @Test
    void retainsHeadersLowerCasedWithTheSignatureRedacted() throws RejectedDelivery {
        byte[] body = WHATSAPP_BATCH.getBytes(StandardCharsets.UTF_8);
        String signature = sign(APP_SECRET, body);
        var delivery = delivery(Map.of("x-hub-signature-256", signature, "Content-Type", "application/json",
                "User-Agent", "facebookexternalua", "Authorization", "Bearer not-to-be-kept"), body);

        Map<String, String> headers = new Meta().verify(delivery, source(APP_SECRET)).headers();

        assertEquals(Map.of("x-hub-signature-256", "[redacted]", "content-type", "application/json",
                "user-agent", "facebookexternalua"), headers);
        assertFalse(headers.values().stream().anyMatch(v -> v.contains(signature.substring(7, 20))));
    }

    @Test
    void rejectsABodyTamperedAfterSigning() {
        byte[] body = WHATSAPP_BATCH.getBytes(StandardCharsets.UTF_8);
        String signature = sign(APP_SECRET, body);
        byte[] tampered = WHATSAPP_BATCH.replace("another color", "another colour").getBytes(StandardCharsets.UTF_8);

        assertEquals(Rejection.INVALID_SIGNATURE,
                rejected(delivery(Map.of("X-Hub-Signature-256", signature), tampered), source(APP_SECRET)).reason());
    }

    @Test
    void rejectsATamperedSignature() {
        byte[] body = WHATSAPP_BATCH.getBytes(StandardCharsets.UTF_8);
        String signature = sign(APP_SECRET, body);
        String flipped = signature.substring(0, signature.length() - 1)
                + (signature.endsWith("0") ? "1" : "0");

        assertEquals(Rejection.INVALID_SIGNATURE,
                rejected(delivery(Map.of("X-Hub-Signature-256", flipped), body), source(APP_SECRET)).reason());
    }

    @Test
    void rejectsASignatureMadeWithAnotherSecret() {
        byte[] body = WHATSAPP_BATCH.getBytes(StandardCharsets.UTF_8);

        assertEquals(Rejection.INVALID_SIGNATURE, rejected(delivery(Map.of("X-Hub-Signature-256",
                sign("not-the-app-secret", body)), body), source(APP_SECRET)).reason());
    }

    @Test
    void rejectsAMissingSignature() {
        byte[] body = WHATSAPP_BATCH.getBytes(StandardCharsets.UTF_8);

        assertEquals(Rejection.MISSING_SIGNATURE,
                rejected(delivery(Map.of("Content-Type", "application/json"), body), source(APP_SECRET)).reason());
    }

    @Test
    void rejectsASignatureWithoutTheSha256Prefix() {
        byte[] body = WHATSAPP_BATCH.getBytes(StandardCharsets.UTF_8);
        String bare = sign(APP_SECRET, body).substring("sha256=".length());

        assertEquals(Rejection.MALFORMED_SIGNATURE,
                rejected(delivery(Map.of("X-Hub-Signature-256", bare), body), source(APP_SECRET)).reason());
    }

    @Test
    void rejectsASignatureOfTheWrongLength() {
        byte[] body = WHATSAPP_BATCH.getBytes(StandardCharsets.UTF_8);
        String cut = sign(APP_SECRET, body).substring(0, 60);

        assertEquals(Rejection.MALFORMED_SIGNATURE,
                rejected(delivery(Map.of("X-Hub-Signature-256", cut), body), source(APP_SECRET)).reason());
    }

    @Test
    void rejectsTheLegacySha1SignatureAlone() {
        byte[] body = WHATSAPP_BATCH.getBytes(StandardCharsets.UTF_8);

        assertEquals(Rejection.MISSING_SIGNATURE, rejected(delivery(Map.of("X-Hub-Signature",
                "sha1=0123456789abcdef0123456789abcdef01234567"), body), source(APP_SECRET)).reason());
    }

    @Test
    void checksTheSignatureBeforeReadingTheBody() {
        byte[] body = "{\"entry\":".getBytes(StandardCharsets.UTF_8);

        assertEquals(Rejection.INVALID_SIGNATURE, rejected(delivery(Map.of("X-Hub-Signature-256",
                sign("not-the-app-secret", body)), body), source(APP_SECRET)).reason());
    }

    @Test
    void acceptsTheOldAppSecretDuringRotation() throws RejectedDelivery {
        byte[] body = WHATSAPP_BATCH.getBytes(StandardCharsets.UTF_8);
        var delivery = delivery(Map.of("X-Hub-Signature-256", sign("old-app-secret", body)), body);

        assertEquals(4, new Meta().verify(delivery, source("old-app-secret", "new-app-secret")).events().size());
    }

    @Test
    void acceptsTheNewAppSecretDuringRotation() throws RejectedDelivery {
        byte[] body = WHATSAPP_BATCH.getBytes(StandardCharsets.UTF_8);
        var delivery = delivery(Map.of("X-Hub-Signature-256", sign("new-app-secret", body)), body);

        assertEquals(4, new Meta().verify(delivery, source("old-app-secret", "new-app-secret")).events().size());
    }

    @Test
    void rejectsASecretThatIsNeitherDuringRotation() {
        byte[] body = WHATSAPP_BATCH.getBytes(StandardCharsets.UTF_8);
        var delivery = delivery(Map.of("X-Hub-Signature-256", sign("third-app-secret", body)), body);

        assertEquals(Rejection.INVALID_SIGNATURE,
                rejected(delivery, source("old-app-secret", "new-app-secret")).reason());
    }

    @Test
    void leavesTheBodyUntouched() throws RejectedDelivery {
        byte[] body = WHATSAPP_BATCH.getBytes(StandardCharsets.UTF_8);
        byte[] copy = body.clone();

        new Meta().verify(signed(body), source(APP_SECRET));

        assertTrue(Arrays.equals(copy, body));
    }

    // --- handshake ---

    @Test
    void answersTheSubscriptionHandshakeWithTheChallenge() throws RejectedDelivery {
        Answer answer = new Meta().handshake(handshakeQuery("subscribe", VERIFY_TOKEN, "1158201444"),
                source(APP_SECRET));

        assertEquals(new Answer(200, "text/plain", "1158201444"), answer);
    }

    @Test
    void echoesTheChallengeExactly() throws RejectedDelivery {
        String challenge = "aZ09-_.~!" + "x".repeat(Meta.MAX_CHALLENGE_LENGTH - 9);

        assertEquals(challenge, new Meta().handshake(handshakeQuery("subscribe", VERIFY_TOKEN, challenge),
                source(APP_SECRET)).body());
    }

    @Test
    void refusesTheHandshakeWithAWrongToken() {
        RejectedDelivery refused = refused(handshakeQuery("subscribe", "meatyhamhocks", "1158201444"),
                source(APP_SECRET));

        assertEquals(Rejection.HANDSHAKE_REFUSED, refused.reason());
        assertFalse(refused.detail().contains(VERIFY_TOKEN), refused.detail());
    }

    @Test
    void refusesTheHandshakeWithoutAToken() {
        assertEquals(Rejection.HANDSHAKE_REFUSED,
                refused(handshakeQuery("subscribe", null, "1158201444"), source(APP_SECRET)).reason());
    }

    @Test
    void refusesTheHandshakeWithAnotherMode() {
        assertEquals(Rejection.HANDSHAKE_REFUSED,
                refused(handshakeQuery("unsubscribe", VERIFY_TOKEN, "1158201444"), source(APP_SECRET)).reason());
    }

    @Test
    void refusesTheHandshakeWithoutAMode() {
        assertEquals(Rejection.HANDSHAKE_REFUSED,
                refused(handshakeQuery(null, VERIFY_TOKEN, "1158201444"), source(APP_SECRET)).reason());
    }

    @Test
    void refusesTheHandshakeWithoutAChallenge() {
        assertEquals(Rejection.HANDSHAKE_REFUSED,
                refused(handshakeQuery("subscribe", VERIFY_TOKEN, null), source(APP_SECRET)).reason());
    }

    @Test
    void refusesTheHandshakeWithAnEmptyChallenge() {
        assertEquals(Rejection.HANDSHAKE_REFUSED,
                refused(handshakeQuery("subscribe", VERIFY_TOKEN, ""), source(APP_SECRET)).reason());
    }

    @Test
    void refusesAChallengeLongerThanTheBound() {
        String challenge = "1".repeat(Meta.MAX_CHALLENGE_LENGTH + 1);

        assertEquals(Rejection.HANDSHAKE_REFUSED,
                refused(handshakeQuery("subscribe", VERIFY_TOKEN, challenge), source(APP_SECRET)).reason());
    }

    @Test
    void refusesAChallengeThatIsNotPrintableAscii() {
        for (String challenge : List.of("115820\n1444", "<script>alert(1)</script> x", "caf\u00e9", "1\u0000")) {
            assertEquals(Rejection.HANDSHAKE_REFUSED,
                    refused(handshakeQuery("subscribe", VERIFY_TOKEN, challenge), source(APP_SECRET)).reason(),
                    challenge);
        }
    }

    @Test
    void refusesTheHandshakeNamingTheVariableWhenNoTokenIsConfigured() {
        RejectedDelivery refused = refused(handshakeQuery("subscribe", VERIFY_TOKEN, "1158201444"),
                source("wa-biz", Map.of(), APP_SECRET));

        assertEquals(Rejection.HANDSHAKE_REFUSED, refused.reason());
        assertTrue(refused.detail().contains("HOOKSTILE_SOURCES_WA_BIZ_VERIFY_TOKEN"), refused.detail());
    }

    @Test
    void refusesTheHandshakeWhenTheConfiguredTokenIsBlank() {
        assertEquals(Rejection.HANDSHAKE_REFUSED, refused(handshakeQuery("subscribe", "", "1158201444"),
                source("wa", Map.of("verify-token", ""), APP_SECRET)).reason());
    }

    // --- settings ---

    @Test
    void readsTheVerifyTokenSetting() {
        assertEquals(Set.of("verify-token"), new Meta().settingNames());
    }

    @Test
    void acceptsASourceWithoutAVerifyToken() {
        new Meta().checkSettings(Map.of());
        new Meta().checkSettings(Map.of("verify-token", VERIFY_TOKEN));
    }

    @Test
    void refusesABlankVerifyTokenAtStartUp() {
        InvalidSetting invalid = assertThrows(InvalidSetting.class,
                () -> new Meta().checkSettings(Map.of("verify-token", "  ")));

        assertEquals("verify-token", invalid.setting());
    }

    // --- payloads ---

    @Test
    void rejectsMalformedJson() {
        assertEquals(Rejection.INVALID_PAYLOAD, rejection("{\"entry\" [}"));
    }

    @Test
    void rejectsABodyThatIsNotAnObject() {
        assertEquals(Rejection.INVALID_PAYLOAD, rejection("[{\"entry\":[]}]"));
    }

    @Test
    void rejectsAnEntryThatIsNotAnArray() {
        RejectedDelivery rejected = rejected(signed("{\"entry\":{\"id\":\"1\"}}"), source(APP_SECRET));

        assertEquals(Rejection.INVALID_PAYLOAD, rejected.reason());
        assertEquals("entry is not an array", rejected.detail());
    }

    @Test
    void rejectsAnEntryElementThatIsNotAnObject() {
        assertEquals(Rejection.INVALID_PAYLOAD, rejection("{\"entry\":[\"102290129340398\"]}"));
    }

    @Test
    void rejectsChangesThatAreNotAnArray() {
        assertEquals(Rejection.INVALID_PAYLOAD,
                rejection("{\"entry\":[{\"id\":\"1\",\"changes\":{\"field\":\"messages\"}}]}"));
    }

    @Test
    void rejectsMessagesThatAreNotAnArray() {
        assertEquals(Rejection.INVALID_PAYLOAD,
                rejection(whatsApp("{\"field\":\"messages\",\"value\":{\"messages\":{\"id\":\"wamid.A\"}}}")));
    }

    @Test
    void rejectsAMessageIdThatIsNotAString() {
        RejectedDelivery rejected = rejected(signed(whatsApp(
                "{\"field\":\"messages\",\"value\":{\"messages\":[{\"id\":12345}]}}")), source(APP_SECRET));

        assertEquals(Rejection.INVALID_PAYLOAD, rejected.reason());
        assertEquals("entry[0].changes[0].value.messages[0].id is not a string", rejected.detail());
    }

    @Test
    void rejectsAStatusThatIsNotAString() {
        assertEquals(Rejection.INVALID_PAYLOAD, rejection(whatsApp(
                "{\"field\":\"messages\",\"value\":{\"statuses\":[{\"id\":\"wamid.A\",\"status\":{}}]}}")));
    }

    @Test
    void rejectsAMidThatIsNotAString() {
        assertEquals(Rejection.INVALID_PAYLOAD, rejection("{\"entry\":[{\"id\":\"1\",\"messaging\":"
                + "[{\"sender\":{\"id\":\"2\"},\"message\":{\"mid\":7}}]}]}"));
    }

    @Test
    void rejectsAChangeWithoutAField() {
        assertEquals(Rejection.INVALID_PAYLOAD, rejection(whatsApp("{\"value\":{\"messages\":[{\"id\":\"wamid.A\"}]}}")));
    }

    @Test
    void rejectsAMessageWithoutAnId() {
        assertEquals(Rejection.MISSING_EVENT_ID,
                rejection(whatsApp("{\"field\":\"messages\",\"value\":{\"messages\":[{\"from\":\"1650\"}]}}")));
    }

    @Test
    void rejectsAStatusWithoutAStatus() {
        assertEquals(Rejection.MISSING_EVENT_ID,
                rejection(whatsApp("{\"field\":\"messages\",\"value\":{\"statuses\":[{\"id\":\"wamid.A\"}]}}")));
    }

    @Test
    void rejectsAContentKeyedChangeWhoseEntryHasNoId() {
        assertEquals(Rejection.MISSING_EVENT_ID, rejection("{\"entry\":[{\"changes\":[" + TEMPLATE_UPDATE + "]}]}"));
    }

    @Test
    void rejectsABodyWithoutEntries() {
        assertEquals(Rejection.MISSING_EVENT_ID, rejection("{\"object\":\"whatsapp_business_account\"}"));
    }

    @Test
    void rejectsABodyWithAnEmptyEntryList() {
        assertEquals(Rejection.MISSING_EVENT_ID, rejection("{\"object\":\"page\",\"entry\":[]}"));
    }

    @Test
    void rejectsABodyWhoseEntriesHoldNothing() {
        assertEquals(Rejection.MISSING_EVENT_ID, rejection("{\"entry\":[{\"id\":\"1\",\"changes\":[]},{\"id\":\"2\"}]}"));
    }

    @Test
    void rejectsTenThousandOpeningBrackets() {
        assertEquals(Rejection.INVALID_PAYLOAD, rejection("[".repeat(10_000)));
    }

    @Test
    void rejectsTenThousandOpeningBracketsInsideAChange() {
        assertEquals(Rejection.INVALID_PAYLOAD,
                rejection(whatsApp("{\"field\":\"messages\",\"value\":" + "[".repeat(10_000))));
    }

    @Test
    void rejectsWellFormedJsonNestedTenThousandDeep() {
        assertEquals(Rejection.INVALID_PAYLOAD, rejection(whatsApp("{\"field\":\"x\",\"value\":"
                + "[".repeat(10_000) + "]".repeat(10_000) + "}")));
    }

    @Test
    void rejectsJsonTruncatedInsideANestedObjectWithoutHanging() {
        String truncated = "{\"entry\":[{\"id\":\"1\",\"changes\":[{\"field\":\"messages\",\"value\":{\"messages\":"
                + "[{\"id\":\"wamid.A\",\"text\":{";

        assertEquals(Rejection.INVALID_PAYLOAD,
                assertTimeoutPreemptively(Duration.ofSeconds(5), () -> rejection(truncated)));
    }

    @Test
    void rejectsInvalidUtf8() {
        byte[] prefix = ("{\"entry\":[{\"id\":\"1\",\"changes\":[{\"field\":\"messages\",\"value\":"
                + "{\"messages\":[{\"id\":\"wamid.").getBytes(StandardCharsets.UTF_8);
        byte[] suffix = "\"}]}}]}]}".getBytes(StandardCharsets.UTF_8);
        byte[] body = new byte[prefix.length + 2 + suffix.length];
        System.arraycopy(prefix, 0, body, 0, prefix.length);
        body[prefix.length] = (byte) 0xC3;
        body[prefix.length + 1] = (byte) 0x28;
        System.arraycopy(suffix, 0, body, prefix.length + 2, suffix.length);

        assertEquals(Rejection.INVALID_PAYLOAD, rejected(signed(body), source(APP_SECRET)).reason());
    }
}
