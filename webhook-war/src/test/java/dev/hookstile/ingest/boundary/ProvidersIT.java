package dev.hookstile.ingest.boundary;

import dev.hookstile.it.DeployedHookstile;
import dev.hookstile.it.ItEnvironment;
import dev.hookstile.it.Webhooks;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static dev.hookstile.it.Webhooks.completed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * Every provider end to end, configured through environment variables as a user would (see the failsafe
 * configuration): a delivery signed the provider's way is accepted, processed once, and its redelivery is a
 * duplicate.
 */
class ProvidersIT extends DeployedHookstile {

    private static final Duration PROCESSING = Duration.ofSeconds(30);

    @Test
    void shopifyDeliveryIsProcessedOnceUnderItsWebhookId() {
        String id = UUID.randomUUID().toString();
        String body = "{\"id\":820982911946154508,\"email\":\"jon@example.com\",\"total_price\":\"199.00\"}";

        assertAccepted(webhooks.send(webhooks.shopify(id, "orders/create", body)), "shop", id);

        assertProcessedOnce("shop", id, "orders/create");
        assertEquals(200, webhooks.send(webhooks.shopify(id, "orders/create", body)).statusCode());
    }

    /**
     * Shopify signs the body alone: the topic (which picks the handlers) and the webhook id are headers anyone can
     * change. A captured orders/create resent as orders/paid under a fresh id verifies, and must not run again.
     */
    @Test
    void aCapturedShopifyDeliveryResentAsAnotherTopicUnderAFreshIdDoesNotRunTheHandlers() {
        String created = UUID.randomUUID().toString();
        String forged = UUID.randomUUID().toString();
        String body = "{\"id\":" + System.nanoTime() + ",\"email\":\"jon@example.com\",\"total_price\":\"199.00\","
                + "\"financial_status\":\"pending\"}";
        assertAccepted(webhooks.send(webhooks.shopify(created, "orders/create", body)), "shop", created);
        assertProcessedOnce("shop", created, "orders/create");

        HttpResponse<String> resent = webhooks.send(webhooks.shopify(forged, "orders/paid", body));

        assertAccepted(resent, "shop", forged);
        JsonObject paid = webhooks.awaitRecorded("shop", forged, state -> !"absent".equals(state.getString("status"))
                && !"received".equals(state.getString("status")), PROCESSING);
        assertEquals("ignored", paid.getString("status"), paid.toString());
        assertEquals(0, paid.getInt("effects"), "the orders/paid handlers did not run");
        assertEquals(1, webhooks.recorded("shop", created).getInt("effects"));
    }

    /**
     * Copies arriving together are handed off in one message and claimed in one try: its body lookup must hold
     * there too. Twenty copies of one body under fresh ids, sent at once: the handlers run once.
     */
    @Test
    void copiesOfOneShopifyBodySentAtOnceUnderFreshIdsRunTheHandlersOnce() throws Exception {
        String body = "{\"id\":" + System.nanoTime() + ",\"email\":\"ann@example.com\",\"total_price\":\"5.00\"}";
        var ids = new ArrayList<String>();
        for (int i = 0; i < 20; i++) {
            ids.add(UUID.randomUUID().toString());
        }
        var start = new CountDownLatch(1);
        var pool = Executors.newFixedThreadPool(ids.size());
        try {
            var answers = new ArrayList<Future<HttpResponse<String>>>();
            for (int i = 0; i < ids.size(); i++) {
                String id = ids.get(i);
                answers.add(pool.submit(() -> {
                    start.await();
                    return webhooks.send(webhooks.shopify(id, "orders/create", body));
                }));
            }
            start.countDown();
            for (int i = 0; i < ids.size(); i++) {
                assertAccepted(answers.get(i).get(), "shop", ids.get(i));
            }
        } finally {
            pool.shutdownNow();
        }

        int effects = 0;
        int ignored = 0;
        for (String id : ids) {
            JsonObject copy = webhooks.awaitRecorded("shop", id, state -> !"absent".equals(state.getString("status"))
                    && !"received".equals(state.getString("status")), PROCESSING);
            effects += copy.getInt("effects");
            ignored += "ignored".equals(copy.getString("status")) ? 1 : 0;
        }
        assertEquals(1, effects, "the handlers ran for one copy only");
        assertEquals(ids.size() - 1, ignored, "every other copy is ignored as a repeat");
    }

    /**
     * Twilio signs the decoded, sorted fields, not the bytes, and not its idempotency token: the same callback with
     * its fields reordered and a letter percent-encoded, under a fresh token, verifies and must not run again.
     */
    @Test
    void aTwilioCallbackReEncodedUnderAFreshIdempotencyTokenDoesNotRunTheHandlers() {
        String sid = "SM" + UUID.randomUUID().toString().replace("-", "");
        var form = new TreeMap<String, String>();
        form.put("MessageSid", sid);
        form.put("MessageStatus", "delivered");
        form.put("AccountSid", "AC0123456789");
        String first = "first-" + UUID.randomUUID();
        String second = "second-" + UUID.randomUUID();
        assertAccepted(webhooks.send(webhooks.twilio(form).header("I-Twilio-Idempotency-Token", first)), "tw", first);
        assertProcessedOnce("tw", first, "delivered");

        String reEncoded = "MessageStatus=d%65livered&AccountSid=AC0123456789&MessageSid=" + sid;
        HttpResponse<String> resent = webhooks.send(
                webhooks.twilio(form, reEncoded).header("I-Twilio-Idempotency-Token", second));

        assertAccepted(resent, "tw", second);
        JsonObject copy = webhooks.awaitRecorded("tw", second, state -> !"absent".equals(state.getString("status"))
                && !"received".equals(state.getString("status")), PROCESSING);
        assertEquals("ignored", copy.getString("status"), copy.toString());
        assertEquals(0, copy.getInt("effects"), "the handlers did not run for the re-encoded copy");
    }

    @Test
    void slackEventIsProcessedOnceUnderItsEventId() {
        String id = "Ev" + UUID.randomUUID().toString().replace("-", "").substring(0, 10).toUpperCase();
        String body = "{\"token\":\"x\",\"team_id\":\"T1\",\"type\":\"event_callback\",\"event_id\":\"" + id
                + "\",\"event\":{\"type\":\"app_mention\",\"text\":\"<@U0LAN0Z89> is it everything?\"}}";

        assertAccepted(webhooks.send(webhooks.slack(body)), "slack", id);

        assertProcessedOnce("slack", id, "app_mention");
    }

    @Test
    void slackUrlVerificationIsAnsweredWithTheChallengeAndNothingIsQueued() {
        String challenge = "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P";
        String body = "{\"token\":\"x\",\"challenge\":\"" + challenge + "\",\"type\":\"url_verification\"}";

        HttpResponse<String> response = webhooks.send(webhooks.slack(body));

        assertEquals(200, response.statusCode(), response.body());
        assertEquals(challenge, Webhooks.json(response.body()).getString("challenge"));
    }

    @Test
    void twilioStatusCallbackIsVerifiedOnTheUrlAndFormParameters() {
        String sid = "SM" + UUID.randomUUID().toString().replace("-", "");
        var form = new TreeMap<String, String>();
        form.put("MessageSid", sid);
        form.put("MessageStatus", "delivered");
        form.put("AccountSid", "AC0123456789");
        form.put("To", "+15558675310");
        form.put("Body", "Ahoy & welcome: 100% ✓");

        assertAccepted(webhooks.send(webhooks.twilio(form)), "tw", sid + ":delivered");

        assertProcessedOnce("tw", sid + ":delivered", "delivered");
    }

    @Test
    void metaBatchIsSplitIntoOneEventPerMessageEachProcessedOnce() {
        String first = "wamid." + UUID.randomUUID();
        String second = "wamid." + UUID.randomUUID();
        String body = "{\"object\":\"whatsapp_business_account\",\"entry\":[{\"id\":\"102290129340398\",\"changes\":[{"
                + "\"value\":{\"messaging_product\":\"whatsapp\",\"metadata\":{\"phone_number_id\":\"106540352242922\"},"
                + "\"messages\":[{\"from\":\"16315551181\",\"id\":\"" + first + "\",\"timestamp\":\"1669233778\","
                + "\"text\":{\"body\":\"Hello\"},\"type\":\"text\"},{\"from\":\"16315551181\",\"id\":\"" + second
                + "\",\"timestamp\":\"1669233779\",\"text\":{\"body\":\"again\"},\"type\":\"text\"}]},"
                + "\"field\":\"messages\"}]}]}";

        HttpResponse<String> response = webhooks.send(webhooks.meta(body));

        assertEquals(202, response.statusCode(), response.body());
        assertEquals(2, Webhooks.json(response.body()).getJsonArray("events").size(), response.body());
        assertProcessedOnce("wa", first, "messages.message");
        assertProcessedOnce("wa", second, "messages.message");
        // The two events traveled in one message carrying the body once: each still has all of it.
        for (String id : List.of(first, second)) {
            assertEquals(body, new String(Base64.getDecoder().decode(webhooks.recorded("wa", id).getString("payload")),
                    StandardCharsets.UTF_8));
        }
        assertEquals(200, webhooks.send(webhooks.meta(body)).statusCode(), "the whole batch again is a duplicate");
    }

    @Test
    void aMetaBatchStoresItsBodyOnceForAllItsEvents() throws Exception {
        assumeFalse(ItEnvironment.databaseUrl().isEmpty(), "needs PostgreSQL: the embedded database is the server's");
        String run = UUID.randomUUID().toString();
        var ids = new ArrayList<String>();
        var messages = new StringJoiner(",");
        for (int i = 0; i < 200; i++) {
            ids.add("wamid." + run + "." + i);
            messages.add("{\"from\":\"16315551181\",\"id\":\"" + ids.get(i) + "\",\"timestamp\":\"1669233778\","
                    + "\"text\":{\"body\":\"message " + i + "\"},\"type\":\"text\"}");
        }
        String body = "{\"object\":\"whatsapp_business_account\",\"entry\":[{\"id\":\"102290129340398\",\"changes\":[{"
                + "\"value\":{\"messaging_product\":\"whatsapp\",\"messages\":[" + messages + "]},"
                + "\"field\":\"messages\"}]}]}";

        HttpResponse<String> response = webhooks.send(webhooks.meta(body));

        assertEquals(202, response.statusCode(), response.body());
        ids.forEach(id -> assertProcessedOnce("wa", id, "messages.message"));
        try (Connection db = DriverManager.getConnection(ItEnvironment.databaseUrl(),
                System.getProperty("hookstile.test.db.user"), System.getProperty("hookstile.test.db.password"));
             PreparedStatement rows = db.prepareStatement("""
                     SELECT COUNT(*), COUNT(e.payload), COUNT(DISTINCT e.body_digest), (ARRAY_AGG(b.body))[1]
                     FROM received_event e LEFT JOIN event_body b ON b.digest = e.body_digest
                     WHERE e.source = 'wa' AND e.event_id LIKE ?""")) {
            rows.setString(1, "wamid." + run + ".%");
            try (ResultSet result = rows.executeQuery()) {
                result.next();
                assertEquals(200, result.getInt(1), "every event recorded");
                assertEquals(0, result.getInt(2), "no event keeps a copy of its own");
                assertEquals(1, result.getInt(3), "all refer to one stored body");
                assertEquals(body, new String(result.getBytes(4), StandardCharsets.UTF_8));
            }
        }
        // What operators and replays read is still the whole body.
        assertEquals(body, new String(Base64.getDecoder().decode(
                webhooks.recorded("wa", ids.get(199)).getString("payload")), StandardCharsets.UTF_8));
    }

    @Test
    void metaSubscriptionHandshakeEchoesTheChallengeOnlyForTheVerifyToken() {
        HttpResponse<String> accepted = webhooks.get(
                "webhooks/wa?hub.mode=subscribe&hub.verify_token=" + Webhooks.META_VERIFY_TOKEN + "&hub.challenge=1158201444");
        HttpResponse<String> refused = webhooks.get(
                "webhooks/wa?hub.mode=subscribe&hub.verify_token=guess&hub.challenge=1158201444");

        assertEquals(200, accepted.statusCode(), accepted.body());
        assertEquals("1158201444", accepted.body());
        assertEquals(403, refused.statusCode(), refused.body());
        assertEquals("application/problem+json", refused.headers().firstValue("Content-Type").orElse(""));
    }

    @Test
    void svixDeliveryIsProcessedOnceUnderItsSvixId() {
        String id = "msg_" + UUID.randomUUID().toString().replace("-", "");

        assertAccepted(webhooks.send(webhooks.svix(id, "{\"type\":\"user.created\",\"data\":{}}")), "svix", id);

        assertProcessedOnce("svix", id, "user.created");
    }

    @Test
    void anEd25519SignedStandardWebhookIsVerifiedWithThePublicKeyAloneAndAForgedOneRefused() {
        String id = "msg_" + UUID.randomUUID().toString().replace("-", "");

        assertAccepted(webhooks.send(webhooks.standardV1a("swkeys", id, "{\"type\":\"user.created\"}")), "swkeys", id);
        // No test handler takes this source's events: accepted, processed once, recorded ignored.
        JsonObject recorded = webhooks.awaitRecorded("swkeys", id, state -> "ignored".equals(state.getString("status")),
                PROCESSING);
        assertEquals("user.created", recorded.getString("type"));
        assertEquals(1, recorded.getJsonArray("history").size(), "processed once: " + recorded);

        // The HMAC of the same message under the other sources' secret is no signature for a source of public keys.
        HttpResponse<String> hmac = webhooks.send(webhooks.standard("swkeys", id + "-v1", "{\"type\":\"user.created\"}"));
        assertEquals(401, hmac.statusCode(), hmac.body());
        HttpResponse<String> tampered = webhooks.send(webhooks.standardV1a("swkeys", id + "-x", "{\"type\":\"a\"}")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"type\":\"b\"}")));
        assertEquals(401, tampered.statusCode(), tampered.body());
    }

    @Test
    void inHouseHmacSenderIsVerifiedWithTheConfiguredAlgorithmEncodingAndPointers() {
        String id = "order-" + UUID.randomUUID();
        String body = "{\"meta\":{\"id\":\"" + id + "\",\"kind\":\"order.shipped\"},\"order\":{\"n\":7}}";

        assertAccepted(webhooks.send(webhooks.inhouse(body)), "inhouse", id);

        assertProcessedOnce("inhouse", id, "order.shipped");
    }

    private static void assertAccepted(HttpResponse<String> response, String source, String eventId) {
        assertEquals(202, response.statusCode(), response.body());
        JsonObject receipt = Webhooks.json(response.body());
        assertEquals("accepted", receipt.getString("status"));
        assertEquals(source, receipt.getString("source"));
        assertEquals(eventId, receipt.getString("eventId"));
    }

    private void assertProcessedOnce(String source, String eventId, String type) {
        JsonObject recorded = webhooks.awaitRecorded(source, eventId, completed(), PROCESSING);
        assertEquals(type, recorded.getString("type"));
        assertEquals(1, recorded.getInt("effects"), source + "/" + eventId + " was processed once");
    }
}
