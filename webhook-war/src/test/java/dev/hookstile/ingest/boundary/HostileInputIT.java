package dev.hookstile.ingest.boundary;

import com.stripe.net.Webhook;
import dev.hookstile.it.DeployedHookstile;
import dev.hookstile.it.Webhooks;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hostile-input table of docs/security.md, one test per row: each refusal has its precise status and problem
 * type, is counted in {@code hookstile_deliveries_rejected_total} under its reason, and stores nothing. Requests
 * time out after 10 s, so a refusal that hangs (as Parsson's skip did on truncated JSON) fails its test.
 */
class HostileInputIT extends DeployedHookstile {

    private static final Duration PATIENCE = Duration.ofSeconds(10);

    @Test
    void missingSignatureHeaderIsRefusedWith401() {
        String id = UUID.randomUUID().toString();

        assertRefused(webhooks.post("gh", "{}").header("X-GitHub-Delivery", id), 401, "missing-signature");
        assertNothingStored("gh", id);
    }

    @Test
    void stripeHeaderWithoutTimestampIsRefusedAsMalformed() {
        assertRefused(webhooks.post("pay", "{\"id\":\"evt_x\"}").header("Stripe-Signature", "v1=" + "a".repeat(64)),
                401, "malformed-signature");
    }

    @Test
    void signatureThatIsNotHexIsRefusedAsMalformed() {
        assertRefused(webhooks.post("gh", "{}").header("X-GitHub-Delivery", "d").header("X-Hub-Signature-256",
                "sha256=" + "zz".repeat(32)), 401, "malformed-signature");
    }

    @Test
    void signatureThatIsNotBase64IsRefusedAsMalformed() {
        assertRefused(webhooks.post("shop", "{}").header("X-Shopify-Webhook-Id", "w").header("X-Shopify-Hmac-Sha256",
                "%%%not base64%%%"), 401, "malformed-signature");
    }

    @Test
    void signatureWithTheWrongPrefixIsRefusedAsMalformed() {
        assertRefused(webhooks.post("gh", "{}").header("X-GitHub-Delivery", "d").header("X-Hub-Signature-256",
                "sha1=" + "ab".repeat(20)), 401, "malformed-signature");
    }

    @Test
    void signatureByAWrongSecretIsRefusedAndNothingIsStored() {
        String id = UUID.randomUUID().toString();

        assertRefused(webhooks.github(id, "push", "{}", "not-the-secret"), 401, "invalid-signature");
        assertNothingStored("gh", id);
    }

    @Test
    void signatureByARevokedSecretIsRefused() {
        // The POM configures it-github-old-secret and it-github-secret; an older one was rotated out.
        assertRefused(webhooks.github(UUID.randomUUID().toString(), "push", "{}", "it-github-revoked-secret"), 401,
                "invalid-signature");
    }

    @Test
    void timestampFromTheDistantPastIsRefused() throws Exception {
        assertRefused(stripeSignedAt(Instant.now().minusSeconds(3600), "{\"id\":\"evt_old\",\"type\":\"x\"}"), 401,
                "timestamp-out-of-tolerance");
    }

    @Test
    void timestampFromTheFutureIsRefused() throws Exception {
        assertRefused(stripeSignedAt(Instant.now().plusSeconds(3600), "{\"id\":\"evt_future\",\"type\":\"x\"}"), 401,
                "timestamp-out-of-tolerance");
    }

    @Test
    void nonNumericTimestampIsRefused() {
        assertRefused(webhooks.standard("it", "id-" + UUID.randomUUID(), "{}").setHeader("webhook-timestamp", "soon"),
                401, "invalid-timestamp");
    }

    @Test
    void bodyOverTheLimitIsRefusedWith413() {
        String big = "{\"pad\":\"" + "x".repeat(1024 * 1024) + "\"}";

        assertRefused(webhooks.standard("it", "big-" + UUID.randomUUID(), big), 413, "payload-too-large");
    }

    @Test
    void bodyTricklingPastTheDeadlineIsRefusedWith408AndNothingIsQueued() throws Exception {
        assertTrickleCutOff("");
    }

    /** Such a request's body is read the blocking way (Grizzly never hands it to a ReadListener): cut off too. */
    @Test
    void bodyTricklingWithAnUpgradeHeaderIsAlsoRefusedWith408() throws Exception {
        assertTrickleCutOff("Connection: Upgrade\r\nUpgrade: websocket\r\n");
    }

    /**
     * A body that stops after its first byte, offering an upgrade (read the blocking way): the read blocked at the
     * deadline is interrupted, so the thread is freed then, not at the socket's own timeout.
     */
    @Test
    void bodyStalledWithAnUpgradeHeaderIsCutOffAtTheDeadline() throws Exception {
        assertCutOff("Connection: Upgrade\r\nUpgrade: websocket\r\n", false);
    }

    private void assertTrickleCutOff(String extraHeaders) throws Exception {
        assertCutOff(extraHeaders, true);
    }

    private void assertCutOff(String extraHeaders, boolean trickling) throws Exception {
        long before = webhooks.rejections("body-timeout");
        long acceptedBefore = webhooks.accepted();
        URI uri = URI.create(webhooks.base());
        long start = System.nanoTime();
        try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
            socket.setSoTimeout((int) PATIENCE.toMillis());
            OutputStream out = socket.getOutputStream();
            out.write(("POST " + uri.getPath() + "webhooks/gh HTTP/1.1\r\nHost: " + uri.getHost() + "\r\n"
                    + extraHeaders + "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            Thread trickle = new Thread(() -> {
                try {
                    while (trickling && !Thread.currentThread().isInterrupted()) {
                        Thread.sleep(500);
                        out.write(' ');
                        out.flush();
                    }
                } catch (Exception closed) {
                    // the server answered and hung up: what we want
                }
            });
            trickle.setDaemon(true);
            trickle.start();
            var in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
            String status = in.readLine();
            trickle.interrupt();

            assertTrue(status != null && status.startsWith("HTTP/1.1 408"), "answered " + status);
            String line;
            boolean problem = false;
            while ((line = in.readLine()) != null && !line.isEmpty()) {
                problem |= line.toLowerCase().startsWith("content-type: application/problem+json");
            }
            assertTrue(problem, "answered with problem details");
        }
        long waited = Duration.ofNanos(System.nanoTime() - start).toSeconds();
        // The ITs set HOOKSTILE_INGEST_BODY_TIMEOUT_SECONDS=3.
        assertTrue(waited >= 2 && waited < 8, "cut off at the deadline, after " + waited + " s");
        assertEquals(before + 1, webhooks.rejections("body-timeout"), "counted once under body-timeout");
        assertEquals(acceptedBefore, webhooks.accepted(), "nothing queued");
    }

    @Test
    void signedMetaBatchOfMoreEventsThanAllowedIsRefusedWith413AndQueuesNone() {
        long before = webhooks.rejections("too-many-events");
        long acceptedBefore = webhooks.accepted();
        var items = new StringBuilder();
        for (int i = 0; i <= 1_000; i++) {
            items.append(i == 0 ? "" : ",").append("{\"sender\":{\"id\":\"1\"},\"recipient\":{\"id\":\"2\"},")
                    .append("\"timestamp\":1,\"message\":{\"mid\":\"m-").append(UUID.randomUUID())
                    .append("\",\"text\":\"x\"}}");
        }
        String body = "{\"object\":\"page\",\"entry\":[{\"id\":\"1\",\"time\":" + System.currentTimeMillis()
                + ",\"messaging\":[" + items
                + "]}]}";

        HttpResponse<String> response = webhooks.send(webhooks.meta(body));

        assertEquals(413, response.statusCode(), response.body());
        assertTrue(response.body().contains("too-many-events"), response.body());
        assertEquals(before + 1, webhooks.rejections("too-many-events"), "counted once under too-many-events");
        assertEquals(acceptedBefore, webhooks.accepted(), "none of its 1,001 events queued");
    }

    @Test
    void endlessChunkedBodyIsRefusedWith413WhileItIsStillStreaming() throws Exception {
        long before = webhooks.rejections("payload-too-large");
        URI uri = URI.create(webhooks.base());
        try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
            socket.setSoTimeout((int) PATIENCE.toMillis());
            OutputStream out = socket.getOutputStream();
            out.write(("POST " + uri.getPath() + "webhooks/gh HTTP/1.1\r\nHost: " + uri.getHost() + "\r\n"
                    + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            Thread sender = new Thread(() -> {
                byte[] chunk = ("10000\r\n" + "x".repeat(0x10000) + "\r\n").getBytes(StandardCharsets.US_ASCII);
                try {
                    for (int i = 0; i < 1024 * 16; i++) { // up to 1 GiB, never all sent
                        out.write(chunk);
                    }
                } catch (Exception refused) {
                    // the server answered and closed: what we want
                }
            });
            sender.setDaemon(true);
            sender.start();
            var in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
            String status = in.readLine();

            assertTrue(status != null && status.startsWith("HTTP/1.1 413"), "answered " + status);
            sender.interrupt();
        }
        assertEquals(before + 1, webhooks.rejections("payload-too-large"));
    }

    @Test
    void emptyBodyIsRefusedWith400() {
        assertRefused(webhooks.standard("it", "empty-" + UUID.randomUUID(), ""), 400, "invalid-payload");
    }

    @Test
    void signedBodyThatIsNotUtf8IsRefusedWith400() throws Exception {
        byte[] body = {'{', '"', 'i', 'd', '"', ':', '"', 'e', (byte) 0xC3, (byte) 0x28, '"', '}'};
        long t = Instant.now().getEpochSecond();
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(Webhooks.STRIPE_SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        mac.update((t + ".").getBytes(StandardCharsets.US_ASCII));
        String v1 = HexFormat.of().formatHex(mac.doFinal(body));

        assertRefused(webhooks.post("pay", "").header("Stripe-Signature", "t=" + t + ",v1=" + v1)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)), 400, "invalid-payload");
    }

    @Test
    void signedBodyThatIsNotJsonIsRefusedWith400() throws Exception {
        assertRefused(stripeSignedAt(Instant.now(), "id=evt_1&type=x"), 400, "invalid-payload");
    }

    @Test
    void signedJsonNestedTenThousandDeepIsRefusedWith400() throws Exception {
        assertRefused(stripeSignedAt(Instant.now(), "{\"id\":\"evt_deep\",\"data\":" + "[".repeat(10_000)
                + "]".repeat(10_000) + "}"), 400, "invalid-payload");
    }

    @Test
    void signedJsonTruncatedInsideANestedObjectIsRefusedWith400() throws Exception {
        assertRefused(stripeSignedAt(Instant.now(), "{\"id\":\"evt_cut\",\"data\":{\"object\":{"), 400,
                "invalid-payload");
    }

    @Test
    void eventWithoutIdIsRefusedWith400() throws Exception {
        assertRefused(stripeSignedAt(Instant.now(), "{\"type\":\"invoice.paid\"}"), 400, "missing-event-id");
    }

    @Test
    void eventIdOver255CharactersIsRefusedWith400() throws Exception {
        String id = "evt_" + "x".repeat(252);

        assertRefused(stripeSignedAt(Instant.now(), "{\"id\":\"" + id + "\",\"type\":\"x\"}"), 400, "invalid-event-id");
        // The id cannot be stored at all (the column holds 255): what matters is that nothing was queued, which
        // assertRefused checks on the server's count of queued events.
    }

    @Test
    void eventIdWithAControlCharacterIsRefusedWith400() throws Exception {
        assertRefused(stripeSignedAt(Instant.now(), "{\"id\":\"evt_\\u0007bell\",\"type\":\"x\"}"), 400,
                "invalid-event-id");
    }

    @Test
    void eventTypeOver255CharactersIsRefusedWith400() throws Exception {
        assertRefused(stripeSignedAt(Instant.now(), "{\"id\":\"evt_longtype\",\"type\":\"" + "t".repeat(256) + "\"}"),
                400, "invalid-event-type");
    }

    @Test
    void unknownSourceIsRefusedWith404() {
        assertRefused(webhooks.post("no-such-source", "{}"), 404, "unknown-source");
    }

    @Test
    void wrongMethodIsRefusedWith405() {
        assertRefused(HttpRequest.newBuilder(URI.create(webhooks.base() + "webhooks/gh")).DELETE(), 405,
                "method-not-allowed");
    }

    @Test
    void getOnASourceWithoutHandshakeIsRefusedWith405() {
        assertRefused(HttpRequest.newBuilder(URI.create(webhooks.base() + "webhooks/gh")).GET(), 405,
                "method-not-allowed");
    }

    @Test
    void aValidDeliveryRightAfterHostileOnesIsAccepted() throws Exception {
        for (int i = 0; i < 20; i++) {
            webhooks.send(stripeSignedAt(Instant.now(), "{\"id\":\"evt_cut\",\"data\":{\"object\":{\"a\":["));
            webhooks.send(webhooks.github(UUID.randomUUID().toString(), "push", "{}", "wrong"));
        }
        String id = "after-" + UUID.randomUUID();

        HttpResponse<String> response = webhooks.send(webhooks.standard("it", id, "{\"type\":\"calm\"}").timeout(PATIENCE));

        assertEquals(202, response.statusCode(), response.body());
        webhooks.awaitRecorded("it", id, Webhooks.completed(), Duration.ofSeconds(30));
    }

    private HttpRequest.Builder stripeSignedAt(Instant at, String body) throws Exception {
        long t = at.getEpochSecond();
        String v1 = Webhook.Util.computeHmacSha256(Webhooks.STRIPE_SECRET, t + "." + body);
        return webhooks.post("pay", body).header("Stripe-Signature", "t=" + t + ",v1=" + v1);
    }

    private void assertRefused(HttpRequest.Builder request, int status, String reason) {
        long before = webhooks.rejections(reason);
        long acceptedBefore = webhooks.accepted();

        HttpResponse<String> response = webhooks.send(request.timeout(PATIENCE));

        assertEquals(status, response.statusCode(), response.body());
        assertEquals("application/problem+json", response.headers().firstValue("Content-Type").orElse(""));
        JsonObject problem = Webhooks.json(response.body());
        assertEquals("urn:hookstile:problem:" + reason, problem.getString("type"));
        assertEquals(status, problem.getInt("status"));
        assertFalse(problem.getString("detail").isBlank());
        assertEquals(before + 1, webhooks.rejections(reason), "counted once under " + reason);
        assertEquals(acceptedBefore, webhooks.accepted(), "a refused delivery queues nothing");
    }

    /** Nothing was queued (assertRefused), so nothing can be processed later: no row now, nor after a while. */
    private void assertNothingStored(String source, String eventId) {
        Webhooks.sleep(Duration.ofSeconds(1));
        assertEquals("absent", webhooks.recorded(source, eventId).getString("status"));
    }
}
