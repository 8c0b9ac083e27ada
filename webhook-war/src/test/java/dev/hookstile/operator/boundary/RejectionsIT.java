package dev.hookstile.operator.boundary;

import dev.hookstile.it.DeployedHookstile;
import dev.hookstile.it.Webhooks;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.stream.IntStream;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Refused deliveries are kept for the operator ({@code GET /api/rejections}): with their reason, what the sender
 * sent around the body, never a signature or a credential, the body only as its size and SHA-256; a flood is
 * counted whole but kept as a few examples a minute.
 */
class RejectionsIT extends DeployedHookstile {

    /** The examples kept per source, reason and minute (the default). */
    private static final int EXAMPLES_PER_MINUTE = 10;

    @Test
    void aBadSignatureIsKeptWithItsReasonAndWithoutTheSignatureOrACredential() throws Exception {
        String delivery = UUID.randomUUID().toString();
        String hostile = "<script>alert('x')</script> \"quoted\"";
        String body = "{\"zen\":\"" + delivery + "\"}";
        long refusedBefore = refusedBySource("ghkept");
        HttpResponse<String> refused = webhooks.send(webhooks.github("ghkept", delivery, "ping", body, "not-the-secret")
                .header("X-Note", hostile)
                .header("Authorization", "Bearer sender-credential"));
        assertEquals(401, refused.statusCode(), refused.body());
        String sentSignature = HexFormat.of().formatHex(hmacOf(body));

        JsonObject kept = webhooks.awaitRefusal("?source=ghkept&reason=invalid-signature",
                rejection -> delivery.equals(rejection.getJsonObject("headers").getString("x-github-delivery", "")));

        assertEquals(refusedBefore + 1, refusedBySource("ghkept"), "hookstile_deliveries_rejected_by_source_total");
        assertEquals("ghkept", kept.getString("source"));
        assertEquals(401, kept.getInt("status"));
        assertFalse(kept.getString("detail").isBlank());
        JsonObject headers = kept.getJsonObject("headers");
        assertEquals("[redacted]", headers.getString("x-hub-signature-256"));
        assertEquals("[redacted]", headers.getString("authorization"));
        assertEquals(hostile, headers.getString("x-note"), "a sender's text is kept as it was, as text");
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        assertEquals(bytes.length, kept.getJsonNumber("bodySize").longValue());
        assertEquals(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)),
                kept.getString("bodySha256"));
        assertTrue(kept.getString("remoteAddress").startsWith("127.") || kept.getString("remoteAddress").contains(":"));
        String whole = webhooks.send(webhooks.operator("api/rejections/" + kept.getJsonNumber("id").longValue())
                .GET()).body();
        assertFalse(whole.contains(sentSignature), "the signature sent is not kept");
        assertFalse(whole.contains("sender-credential"), "the credential sent is not kept");
        assertFalse(whole.contains("zen"), "nor the body");
    }

    @Test
    void aDeliveryToAnUnknownSourceIsKeptUnderTheNameSentAndCountedWithItsFix() {
        String name = "nosuch-" + UUID.randomUUID().toString().substring(0, 8);
        Instant before = Instant.now().minusSeconds(1);
        HttpResponse<String> refused = webhooks.send(webhooks.post(name, "{}"));
        assertEquals(404, refused.statusCode(), refused.body());

        JsonObject kept = webhooks.awaitRefusal("?source=" + name, rejection -> true);
        assertEquals("unknown-source", kept.getString("reason"));
        assertEquals(404, kept.getInt("status"));

        JsonObject reason = awaitSummary(before, summary -> "_other".equals(summary.getString("source"))
                && "unknown-source".equals(summary.getString("reason")));
        assertTrue(reason.getJsonNumber("refused").longValue() >= 1);
        assertTrue(reason.getString("hint").contains("mistyped"), reason.toString());
        assertEquals("unknown-source", reason.getJsonObject("example").getString("reason"));
    }

    @Test
    void aFloodIsCountedWholeAndKeptAsAFewExamplesAMinute() {
        String flood = "flood-" + UUID.randomUUID().toString().substring(0, 8);
        Instant before = Instant.now().minusSeconds(1);
        int sent = 60;
        // The in-house source, which no other test here sends bad signatures to: its examples are the flood's.
        IntStream.range(0, sent).forEach(i -> assertEquals(401, webhooks.send(webhooks.post("inhouse", "{}")
                .header("X-Flood", flood + "-" + i).header("X-Signature", "sha512=" + Base64.getEncoder().encodeToString(new byte[64]))).statusCode()));

        // Counted whole: every refusal of the source's reason since before the flood.
        JsonObject reason = awaitSummary(before, summary -> "inhouse".equals(summary.getString("source"))
                && "invalid-signature".equals(summary.getString("reason"))
                && summary.getJsonNumber("refused").longValue() >= sent);
        assertTrue(reason.getJsonNumber("refused").longValue() >= sent, reason.toString());
        // Kept as a few examples: at most the minute's share of each minute the flood spanned (two, at a boundary).
        List<JsonObject> kept = Webhooks.json(webhooks.send(webhooks.operator(
                "api/rejections?source=inhouse&reason=invalid-signature&limit=200").GET()).body())
                .getJsonArray("rejections").getValuesAs(JsonObject.class).stream()
                .filter(rejection -> rejection.getJsonObject("headers").getString("x-flood", "")
                        .startsWith(flood + "-"))
                .toList();
        assertFalse(kept.isEmpty(), "some examples kept");
        assertTrue(kept.size() <= 2 * EXAMPLES_PER_MINUTE, kept.size() + " examples kept of " + sent);
    }

    @Test
    void eachKindOfRefusalIsKeptWithItsReasonAndTheFixToTry() {
        Instant before = Instant.now().minusSeconds(1);
        String body = "{\"zen\":\"" + UUID.randomUUID() + "\"}";
        var missing = webhooks.post("ghkept", body).header("X-GitHub-Delivery", UUID.randomUUID().toString())
                .header("X-GitHub-Event", "ping");
        var malformed = webhooks.post("ghkept", body).header("X-GitHub-Delivery", UUID.randomUUID().toString())
                .header("X-GitHub-Event", "ping").header("X-Hub-Signature-256", "sha256=not-hex");
        var tooLarge = webhooks.github("ghkept", UUID.randomUUID().toString(), "ping",
                "{\"pad\":\"" + "x".repeat(1_100_000) + "\"}", "not-the-secret");
        for (var request : List.of(missing, malformed, tooLarge)) {
            HttpResponse<String> refused = webhooks.send(request);
            assertTrue(refused.statusCode() >= 400 && refused.statusCode() < 500, refused.body());
        }

        for (String reason : List.of("missing-signature", "malformed-signature", "payload-too-large")) {
            JsonObject counted = awaitSummary(before, summary -> "ghkept".equals(summary.getString("source"))
                    && reason.equals(summary.getString("reason")));
            assertFalse(counted.getString("hint").isBlank(), reason);
            assertEquals("ghkept", counted.getJsonObject("example").getString("source"), reason);
        }
    }

    @Test
    void aSourceThatKeepsRefusedBodiesShowsTheBodyAsSentAndOnlyInTheDetail() {
        String delivery = UUID.randomUUID().toString();
        String body = "{\"zen\":\"" + delivery + "\",\"note\":\"<script>alert(1)</script>\",\"bad\":\"\u00e9\"}";
        HttpResponse<String> refused = webhooks.send(webhooks.github("ghbodies", delivery, "ping", body, "not-the-secret"));
        assertEquals(401, refused.statusCode(), refused.body());

        JsonObject listed = webhooks.awaitRefusal("?source=ghbodies",
                rejection -> delivery.equals(rejection.getJsonObject("headers").getString("x-github-delivery", "")));
        assertTrue(listed.getBoolean("bodyKept"));
        assertFalse(listed.containsKey("body"), "a list carries no bodies");

        JsonObject detail = Webhooks.json(webhooks.send(webhooks.operator("api/rejections/"
                + listed.getJsonNumber("id").longValue()).GET()).body());
        assertEquals(body, detail.getString("body"));
        assertFalse(detail.getBoolean("bodyTruncated"));
    }

    private JsonObject awaitSummary(Instant since, Predicate<JsonObject> wanted) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            HttpResponse<String> summary = webhooks.send(webhooks.operator("api/rejections/summary?since=" + since)
                    .GET());
            assertEquals(200, summary.statusCode(), summary.body());
            last = summary.body();
            var found = Webhooks.json(last).getJsonArray("reasons").getValuesAs(JsonObject.class).stream()
                    .filter(wanted).findFirst();
            if (found.isPresent()) {
                return found.get();
            }
            sleep();
        }
        return fail("not counted within 20 s: " + last);
    }

    private long refusedBySource(String source) {
        return webhooks.get("metrics").body().lines()
                .filter(line -> line.startsWith("hookstile_deliveries_rejected_by_source_total{")
                        && line.contains("source=\"" + source + "\""))
                .mapToLong(line -> (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }

    private static byte[] hmacOf(String body) throws Exception {
        var mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec("not-the-secret".getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return mac.doFinal(body.getBytes(StandardCharsets.UTF_8));
    }

    private static void sleep() {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
