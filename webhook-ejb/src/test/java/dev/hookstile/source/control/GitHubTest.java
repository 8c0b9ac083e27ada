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
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

class GitHubTest {

    /** From docs.github.com, "Validating webhook deliveries". */
    private static final String DOCS_SECRET = "It's a Secret to Everybody";
    private static final String DOCS_PAYLOAD = "Hello, World!";
    private static final String DOCS_SIGNATURE =
            "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";

    private static Source source(GitHub gitHub, String... secrets) {
        List<byte[]> keys = java.util.Arrays.stream(secrets).map(gitHub::decodeSecret).toList();
        return SourceBuilder.source("gh", gitHub).secrets(keys).tolerance(Duration.ofSeconds(300)).build();
    }

    private static Delivery delivery(Map<String, String> headers, String body) {
        var lookup = new TreeMap<String, String>(String.CASE_INSENSITIVE_ORDER);
        lookup.putAll(headers);
        return new Delivery(lookup::get, body.getBytes(StandardCharsets.UTF_8), Instant.now());
    }

    private static String sign(String secret, String body) {
        return "sha256=" + HexFormat.of().formatHex(Hmac.compute(Hmac.SHA256,
                secret.getBytes(StandardCharsets.UTF_8), body.getBytes(StandardCharsets.UTF_8)));
    }

    private static Rejection rejection(GitHub gitHub, Delivery delivery, Source source) {
        return assertThrows(RejectedDelivery.class, () -> gitHub.verify(delivery, source)).reason();
    }

    @Test
    void acceptsGitHubsPublishedExample() throws RejectedDelivery {
        var gitHub = new GitHub();
        var delivery = delivery(Map.of(
                "X-Hub-Signature-256", DOCS_SIGNATURE,
                "X-GitHub-Delivery", "72d3162e-cc78-11e3-81ab-4c9367dc0958",
                "X-GitHub-Event", "push"), DOCS_PAYLOAD);

        VerifiedDelivery verified = gitHub.verify(delivery, source(gitHub, DOCS_SECRET));

        assertEquals("72d3162e-cc78-11e3-81ab-4c9367dc0958", verified.eventId());
        assertEquals("push", verified.type());
    }

    @Test
    void retainsHeadersLowerCasedWithTheSignatureRedacted() throws RejectedDelivery {
        var gitHub = new GitHub();
        var delivery = delivery(Map.of(
                "x-hub-signature-256", DOCS_SIGNATURE,
                "x-github-delivery", "d-1",
                "x-github-event", "ping",
                "Authorization", "Bearer not-to-be-kept"), DOCS_PAYLOAD);

        Map<String, String> headers = gitHub.verify(delivery, source(gitHub, DOCS_SECRET)).headers();

        assertEquals("[redacted]", headers.get("x-hub-signature-256"));
        assertEquals("d-1", headers.get("x-github-delivery"));
        assertEquals("ping", headers.get("x-github-event"));
        assertFalse(headers.containsKey("authorization"));
        assertFalse(headers.values().stream().anyMatch(v -> v.contains("757107ea")));
    }

    @Test
    void acceptsUpperCaseHexDigits() throws RejectedDelivery {
        var gitHub = new GitHub();
        var delivery = delivery(Map.of(
                "X-Hub-Signature-256", "sha256=" + DOCS_SIGNATURE.substring(7).toUpperCase(),
                "X-GitHub-Delivery", "d-1"), DOCS_PAYLOAD);

        assertEquals("d-1", gitHub.verify(delivery, source(gitHub, DOCS_SECRET)).eventId());
    }

    @Test
    void givesAnEmptyTypeWhenTheEventHeaderIsMissing() throws RejectedDelivery {
        var gitHub = new GitHub();
        var delivery = delivery(Map.of("X-Hub-Signature-256", DOCS_SIGNATURE, "X-GitHub-Delivery", "d-1"),
                DOCS_PAYLOAD);

        assertEquals("", gitHub.verify(delivery, source(gitHub, DOCS_SECRET)).type());
    }

    @Test
    void rejectsMissingSignatureHeader() {
        var gitHub = new GitHub();
        var delivery = delivery(Map.of("X-GitHub-Delivery", "d-1", "X-GitHub-Event", "push"), DOCS_PAYLOAD);

        assertEquals(Rejection.MISSING_SIGNATURE, rejection(gitHub, delivery, source(gitHub, DOCS_SECRET)));
    }

    @Test
    void rejectsOnlyTheLegacySha1Header() {
        var gitHub = new GitHub();
        var delivery = delivery(Map.of("X-Hub-Signature", "sha1=0123456789abcdef0123456789abcdef01234567",
                "X-GitHub-Delivery", "d-1"), DOCS_PAYLOAD);

        assertEquals(Rejection.MISSING_SIGNATURE, rejection(gitHub, delivery, source(gitHub, DOCS_SECRET)));
    }

    @Test
    void rejectsSignatureWithoutSha256Prefix() {
        var gitHub = new GitHub();
        var delivery = delivery(Map.of("X-Hub-Signature-256", DOCS_SIGNATURE.substring("sha256=".length()),
                "X-GitHub-Delivery", "d-1"), DOCS_PAYLOAD);

        assertEquals(Rejection.MALFORMED_SIGNATURE, rejection(gitHub, delivery, source(gitHub, DOCS_SECRET)));
    }

    @Test
    void rejectsSignatureWithSha1Prefix() {
        var gitHub = new GitHub();
        var delivery = delivery(Map.of("X-Hub-Signature-256", DOCS_SIGNATURE.replace("sha256=", "sha1="),
                "X-GitHub-Delivery", "d-1"), DOCS_PAYLOAD);

        assertEquals(Rejection.MALFORMED_SIGNATURE, rejection(gitHub, delivery, source(gitHub, DOCS_SECRET)));
    }

    @Test
    void rejectsSignatureWithNonHexDigits() {
        var gitHub = new GitHub();
        String notHex = "sha256=" + "zz" + DOCS_SIGNATURE.substring("sha256=".length() + 2);
        var delivery = delivery(Map.of("X-Hub-Signature-256", notHex, "X-GitHub-Delivery", "d-1"), DOCS_PAYLOAD);

        assertEquals(Rejection.MALFORMED_SIGNATURE, rejection(gitHub, delivery, source(gitHub, DOCS_SECRET)));
    }

    @Test
    void rejectsSignatureThatIsTooShort() {
        var gitHub = new GitHub();
        var delivery = delivery(Map.of("X-Hub-Signature-256", DOCS_SIGNATURE.substring(0, DOCS_SIGNATURE.length() - 2),
                "X-GitHub-Delivery", "d-1"), DOCS_PAYLOAD);

        assertEquals(Rejection.MALFORMED_SIGNATURE, rejection(gitHub, delivery, source(gitHub, DOCS_SECRET)));
    }

    @Test
    void rejectsSignatureThatIsTooLong() {
        var gitHub = new GitHub();
        var delivery = delivery(Map.of("X-Hub-Signature-256", DOCS_SIGNATURE + "00", "X-GitHub-Delivery", "d-1"),
                DOCS_PAYLOAD);

        assertEquals(Rejection.MALFORMED_SIGNATURE, rejection(gitHub, delivery, source(gitHub, DOCS_SECRET)));
    }

    @Test
    void rejectsEmptySignature() {
        var gitHub = new GitHub();
        var delivery = delivery(Map.of("X-Hub-Signature-256", "", "X-GitHub-Delivery", "d-1"), DOCS_PAYLOAD);

        assertEquals(Rejection.MALFORMED_SIGNATURE, rejection(gitHub, delivery, source(gitHub, DOCS_SECRET)));
    }

    @Test
    void rejectsBodyTamperedAfterSigning() {
        var gitHub = new GitHub();
        var delivery = delivery(Map.of("X-Hub-Signature-256", DOCS_SIGNATURE, "X-GitHub-Delivery", "d-1"),
                "Hello, World?");

        assertEquals(Rejection.INVALID_SIGNATURE, rejection(gitHub, delivery, source(gitHub, DOCS_SECRET)));
    }

    @Test
    void rejectsBodyWithTrailingNewlineAdded() {
        var gitHub = new GitHub();
        var delivery = delivery(Map.of("X-Hub-Signature-256", DOCS_SIGNATURE, "X-GitHub-Delivery", "d-1"),
                DOCS_PAYLOAD + "\n");

        assertEquals(Rejection.INVALID_SIGNATURE, rejection(gitHub, delivery, source(gitHub, DOCS_SECRET)));
    }

    @Test
    void rejectsSignatureMadeWithAnotherSecret() {
        var gitHub = new GitHub();
        var delivery = delivery(Map.of("X-Hub-Signature-256", DOCS_SIGNATURE, "X-GitHub-Delivery", "d-1"),
                DOCS_PAYLOAD);

        assertEquals(Rejection.INVALID_SIGNATURE, rejection(gitHub, delivery, source(gitHub, "It's a secret to everybody")));
    }

    @Test
    void rejectsMissingDeliveryId() {
        var gitHub = new GitHub();
        var delivery = delivery(Map.of("X-Hub-Signature-256", DOCS_SIGNATURE, "X-GitHub-Event", "push"),
                DOCS_PAYLOAD);

        assertEquals(Rejection.MISSING_EVENT_ID, rejection(gitHub, delivery, source(gitHub, DOCS_SECRET)));
    }

    @Test
    void rejectsEmptyDeliveryId() {
        var gitHub = new GitHub();
        var delivery = delivery(Map.of("X-Hub-Signature-256", DOCS_SIGNATURE, "X-GitHub-Delivery", ""),
                DOCS_PAYLOAD);

        assertEquals(Rejection.MISSING_EVENT_ID, rejection(gitHub, delivery, source(gitHub, DOCS_SECRET)));
    }

    @Test
    void checksTheSignatureBeforeTheDeliveryId() {
        var gitHub = new GitHub();
        var delivery = delivery(Map.of("X-Hub-Signature-256", DOCS_SIGNATURE), "forged");

        assertEquals(Rejection.INVALID_SIGNATURE, rejection(gitHub, delivery, source(gitHub, DOCS_SECRET)));
    }

    @Test
    void acceptsSignatureByTheOldSecretDuringRotation() throws RejectedDelivery {
        var gitHub = new GitHub();
        var delivery = delivery(Map.of("X-Hub-Signature-256", sign("old-secret", "{\"zen\":\"x\"}"),
                "X-GitHub-Delivery", "d-old"), "{\"zen\":\"x\"}");

        assertEquals("d-old", gitHub.verify(delivery, source(gitHub, "old-secret", "new-secret")).eventId());
    }

    @Test
    void acceptsSignatureByTheNewSecretDuringRotation() throws RejectedDelivery {
        var gitHub = new GitHub();
        var delivery = delivery(Map.of("X-Hub-Signature-256", sign("new-secret", "{\"zen\":\"x\"}"),
                "X-GitHub-Delivery", "d-new"), "{\"zen\":\"x\"}");

        assertEquals("d-new", gitHub.verify(delivery, source(gitHub, "old-secret", "new-secret")).eventId());
    }

    @Test
    void rejectsSignatureByNeitherSecretDuringRotation() {
        var gitHub = new GitHub();
        var delivery = delivery(Map.of("X-Hub-Signature-256", sign("third-secret", "{\"zen\":\"x\"}"),
                "X-GitHub-Delivery", "d-1"), "{\"zen\":\"x\"}");

        assertEquals(Rejection.INVALID_SIGNATURE,
                rejection(gitHub, delivery, source(gitHub, "old-secret", "new-secret")));
    }

    @Test
    void isRegisteredUnderTheNameGithub() {
        assertEquals(GitHub.class, Providers.byName("github").orElseThrow().getClass());
    }
}
