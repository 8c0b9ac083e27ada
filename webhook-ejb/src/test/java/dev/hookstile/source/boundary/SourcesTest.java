package dev.hookstile.source.boundary;

import dev.hookstile.source.SourceConfigurationException;

import dev.hookstile.source.Source;

import dev.hookstile.MapConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SourcesTest {

    private static Sources sources(Map<String, String> values) {
        return new Sources(new MapConfig(values));
    }

    private static SourceConfigurationException failure(Map<String, String> values) {
        return assertThrows(SourceConfigurationException.class, () -> sources(values));
    }

    /** A stripe source {@code pay} forwarding to an HTTP destination with a secret: what each destination setting adds to. */
    private static Map<String, String> forwardingPay() {
        return Map.of(
                "hookstile.sources", "pay",
                "hookstile.sources.pay.provider", "stripe",
                "hookstile.sources.pay.secrets", "whsec_abc",
                "hookstile.sources.pay.destination-url", "https://backoffice.example.com/hooks",
                "hookstile.sources.pay.destination-secret", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void readsTwoSourcesWithTheirProvidersAndSecrets() {
        var sources = sources(Map.of(
                "hookstile.sources", "gh, billing",
                "hookstile.sources.gh.provider", "github",
                "hookstile.sources.gh.secrets", "first-secret, second-secret",
                "hookstile.sources.billing.provider", "stripe",
                "hookstile.sources.billing.secrets", "whsec_abc"));

        Source gh = sources.find("gh").orElseThrow();
        assertEquals("gh", gh.name());
        assertEquals("github", gh.provider().name());
        assertEquals(2, gh.secrets().size());
        assertArrayEquals(utf8("first-secret"), gh.secrets().get(0));
        assertArrayEquals(utf8("second-secret"), gh.secrets().get(1));

        Source billing = sources.find("billing").orElseThrow();
        assertEquals("stripe", billing.provider().name());
        assertEquals(1, billing.secrets().size());
        assertArrayEquals(utf8("whsec_abc"), billing.secrets().get(0));

        assertEquals(Set.of("gh", "billing"),
                sources.all().stream().map(Source::name).collect(Collectors.toSet()));
    }

    @Test
    void listsSourcesInTheOrderTheyAreConfiguredEveryTime() {
        var names = List.of("zeta", "alpha", "mid", "beta", "omega", "gamma", "delta", "kappa");
        var values = new java.util.HashMap<String, String>();
        values.put("hookstile.sources", String.join(",", names));
        for (String name : names) {
            values.put("hookstile.sources." + name + ".provider", "github");
            values.put("hookstile.sources." + name + ".secrets", "a-secret-of-sixteen-bytes-" + name);
        }

        assertEquals(names, sources(values).all().stream().map(Source::name).toList());
    }

    @Test
    void decodesStandardWebhooksSecretsFromBase64() {
        byte[] key = utf8("twenty-four-byte-secret!");
        var sources = sources(Map.of(
                "hookstile.sources", "svix",
                "hookstile.sources.svix.provider", "standard-webhooks",
                "hookstile.sources.svix.secrets", "whsec_" + Base64.getEncoder().encodeToString(key)));

        assertArrayEquals(key, sources.find("svix").orElseThrow().secrets().get(0));
    }

    @Test
    void rejectsStandardWebhooksSecretThatIsNotBase64() {
        var e = failure(Map.of(
                "hookstile.sources", "svix",
                "hookstile.sources.svix.provider", "standard-webhooks",
                "hookstile.sources.svix.secrets", "whsec_not*base64!"));

        assertTrue(e.getMessage().contains("svix"), e.getMessage());
        assertFalse(e.getMessage().contains("not*base64!"), e.getMessage());
    }

    @Test
    void normalisesCaseOfSourceAndProviderNames() {
        var sources = sources(Map.of(
                "hookstile.sources", " GH ",
                "hookstile.sources.gh.provider", " GitHub ",
                "hookstile.sources.gh.secrets", "s"));

        assertEquals("github", sources.find("gh").orElseThrow().provider().name());
    }

    @Test
    void hasNoSourcesWhenNoneAreConfigured() {
        var sources = sources(Map.of());

        assertTrue(sources.all().isEmpty());
        assertTrue(sources.find("gh").isEmpty());
    }

    @Test
    void findsNothingForAnUnconfiguredName() {
        var sources = sources(Map.of(
                "hookstile.sources", "gh",
                "hookstile.sources.gh.provider", "github",
                "hookstile.sources.gh.secrets", "s"));

        assertTrue(sources.find("billing").isEmpty());
    }

    @Test
    void rejectsUnknownProviderNamingTheValidOnes() {
        var e = failure(Map.of(
                "hookstile.sources", "gl",
                "hookstile.sources.gl.provider", "gitlab",
                "hookstile.sources.gl.secrets", "s"));

        assertTrue(e.getMessage().contains("gitlab"), e.getMessage());
        assertTrue(e.getMessage().contains("github"), e.getMessage());
        assertTrue(e.getMessage().contains("stripe"), e.getMessage());
        assertTrue(e.getMessage().contains("standard-webhooks"), e.getMessage());
    }

    @Test
    void rejectsSourceWithoutProviderNamingTheVariable() {
        var e = failure(Map.of(
                "hookstile.sources", "gh",
                "hookstile.sources.gh.secrets", "s"));

        assertTrue(e.getMessage().contains("HOOKSTILE_SOURCES_GH_PROVIDER"), e.getMessage());
    }

    @Test
    void rejectsSourceWithoutSecretsNamingTheVariable() {
        var e = failure(Map.of(
                "hookstile.sources", "gh",
                "hookstile.sources.gh.provider", "github"));

        assertTrue(e.getMessage().contains("HOOKSTILE_SOURCES_GH_SECRETS"), e.getMessage());
    }

    @Test
    void aStandardWebhooksSourceMayHavePublicKeysInsteadOfSecrets() {
        String key = dev.hookstile.test.Deliveries.publicKeyOf("whsk_VEVTVFNJR05JTkdLRVlET05PVFVTRVRISVNGT1JBTlk=");
        var source = sources(Map.of(
                "hookstile.sources", "sw",
                "hookstile.sources.sw.provider", "standard-webhooks",
                "hookstile.sources.sw.public-keys", key)).find("sw").orElseThrow();

        assertEquals(0, source.secrets().size());
        assertEquals(1, source.publicKeyCount());
        var neither = failure(Map.of(
                "hookstile.sources", "sw",
                "hookstile.sources.sw.provider", "standard-webhooks"));
        assertTrue(neither.getMessage().contains("HOOKSTILE_SOURCES_SW_PUBLIC_KEYS"), neither.getMessage());
        var bad = failure(Map.of(
                "hookstile.sources", "sw",
                "hookstile.sources.sw.provider", "standard-webhooks",
                "hookstile.sources.sw.public-keys", "whpk_abc"));
        assertTrue(bad.getMessage().contains("HOOKSTILE_SOURCES_SW_PUBLIC_KEYS"), bad.getMessage());
        assertFalse(bad.getMessage().contains("whpk_abc"), "the key is not quoted: " + bad.getMessage());
    }

    @Test
    void aDestinationMaySignWithAnEd25519KeyInsteadOfASecret() {
        var source = sources(Map.of(
                "hookstile.sources", "pay",
                "hookstile.sources.pay.provider", "stripe",
                "hookstile.sources.pay.secrets", "whsec_abc",
                "hookstile.sources.pay.destination-url", "https://backoffice.example.com/hooks",
                "hookstile.sources.pay.destination-signing-key", "whsk_VEVTVFNJR05JTkdLRVlET05PVFVTRVRISVNGT1JBTlk="))
                .find("pay").orElseThrow();

        assertEquals(null, source.destination().secret());
        assertTrue(source.destination().signingKey() != null);
        assertFalse(source.toString().contains("VEVTVFNJR05J"), "the signing key is never printed");
        var bad = failure(Map.of(
                "hookstile.sources", "pay",
                "hookstile.sources.pay.provider", "stripe",
                "hookstile.sources.pay.secrets", "whsec_abc",
                "hookstile.sources.pay.destination-url", "https://backoffice.example.com/hooks",
                "hookstile.sources.pay.destination-signing-key", "whsk_c2hvcnQ="));
        assertTrue(bad.getMessage().contains("HOOKSTILE_SOURCES_PAY_DESTINATION_SIGNING_KEY"), bad.getMessage());
    }

    @Test
    void aDestinationFilterIsAJsonFragmentOrTheStartIsRefusedNamingIt() {
        var base = forwardingPay();
        var filtered = new java.util.HashMap<>(base);
        filtered.put("hookstile.sources.pay.destination-filter", "{\"data\":{\"object\":{\"livemode\":true}}}");
        var destination = sources(filtered).find("pay").orElseThrow().destination();

        assertTrue(destination.forwardsBody(utf8("{\"data\":{\"object\":{\"livemode\":true,\"id\":1}}}")));
        assertFalse(destination.forwardsBody(utf8("{\"data\":{\"object\":{\"livemode\":false}}}")));
        assertTrue(sources(base).find("pay").orElseThrow().destination().forwardsBody(utf8("not json")),
                "without a filter every body");
        for (String bad : List.of("[1]", "{\"data\":", "livemode")) {
            var broken = new java.util.HashMap<>(base);
            broken.put("hookstile.sources.pay.destination-filter", bad);
            var e = failure(broken);
            assertTrue(e.getMessage().contains("HOOKSTILE_SOURCES_PAY_DESTINATION_FILTER"), e.getMessage());
        }
        var withoutUrl = failure(Map.of(
                "hookstile.sources", "pay",
                "hookstile.sources.pay.provider", "stripe",
                "hookstile.sources.pay.secrets", "whsec_abc",
                "hookstile.sources.pay.destination-filter", "{\"livemode\":true}"));
        assertTrue(withoutUrl.getMessage().contains("HOOKSTILE_SOURCES_PAY_DESTINATION_URL"), withoutUrl.getMessage());
    }

    @Test
    void aDestinationsPaceIsARatePerUnitAndAConcurrencyOrTheStartIsRefusedNamingIt() {
        var base = forwardingPay();
        assertFalse(sources(base).find("pay").orElseThrow().destination().pace().limited(), "no limit unless set");
        for (var rate : Map.of("50/s", 50.0, "1000/min", 1000 / 60.0, " 3600/h ", 1.0).entrySet()) {
            var paced = new java.util.HashMap<>(base);
            paced.put("hookstile.sources.pay.destination-rate", rate.getKey());
            paced.put("hookstile.sources.pay.destination-concurrency", "2");
            var pace = sources(paced).find("pay").orElseThrow().destination().pace();
            assertEquals(rate.getValue(), pace.perSecond(), 1e-9, rate.getKey());
            assertEquals(2, pace.concurrency());
        }
        for (String bad : List.of("50", "0/s", "50/day", "fast", "-1/s", "1.5/s")) {
            var broken = new java.util.HashMap<>(base);
            broken.put("hookstile.sources.pay.destination-rate", bad);
            var e = failure(broken);
            assertTrue(e.getMessage().contains("HOOKSTILE_SOURCES_PAY_DESTINATION_RATE"), e.getMessage());
        }
        for (String bad : List.of("0", "65", "-2", "many")) {
            var broken = new java.util.HashMap<>(base);
            broken.put("hookstile.sources.pay.destination-concurrency", bad);
            var e = failure(broken);
            assertTrue(e.getMessage().contains("HOOKSTILE_SOURCES_PAY_DESTINATION_CONCURRENCY"), e.getMessage());
        }
    }

    @Test
    void namesTheVariableOfAHyphenatedSourceWithUnderscores() {
        var e = failure(Map.of(
                "hookstile.sources", "my-hooks",
                "hookstile.sources.my-hooks.provider", "github"));

        assertTrue(e.getMessage().contains("HOOKSTILE_SOURCES_MY_HOOKS_SECRETS"), e.getMessage());
    }

    @Test
    void rejectsSecretsThatAreOnlySeparators() {
        var e = failure(Map.of(
                "hookstile.sources", "gh",
                "hookstile.sources.gh.provider", "github",
                "hookstile.sources.gh.secrets", " , ,"));

        assertTrue(e.getMessage().contains("HOOKSTILE_SOURCES_GH_SECRETS"), e.getMessage());
    }

    @Test
    void rejectsSourceNameWithUnderscore() {
        var e = failure(Map.of(
                "hookstile.sources", "my_hooks",
                "hookstile.sources.my_hooks.provider", "github",
                "hookstile.sources.my_hooks.secrets", "s"));

        assertTrue(e.getMessage().contains("my_hooks"), e.getMessage());
    }

    @Test
    void rejectsSourceNameStartingWithHyphen() {
        var e = failure(Map.of(
                "hookstile.sources", "-gh",
                "hookstile.sources.-gh.provider", "github",
                "hookstile.sources.-gh.secrets", "s"));
        assertTrue(e.getMessage().contains("HOOKSTILE_SOURCES") && e.getMessage().contains("'-gh' is invalid"),
                e.getMessage());
    }

    @Test
    void rejectsSourceNameWithPathCharacters() {
        var e = failure(Map.of(
                "hookstile.sources", "../gh",
                "hookstile.sources.../gh.provider", "github",
                "hookstile.sources.../gh.secrets", "s"));
        assertTrue(e.getMessage().contains("HOOKSTILE_SOURCES") && e.getMessage().contains("'../gh' is invalid"),
                e.getMessage());
    }

    @Test
    void acceptsSourceNameOf63CharactersButNot64() {
        String name63 = "a".repeat(63);
        var sources = sources(Map.of(
                "hookstile.sources", name63,
                "hookstile.sources." + name63 + ".provider", "github",
                "hookstile.sources." + name63 + ".secrets", "s"));
        assertTrue(sources.find(name63).isPresent());

        String name64 = "a".repeat(64);
        var e = failure(Map.of(
                "hookstile.sources", name64,
                "hookstile.sources." + name64 + ".provider", "github",
                "hookstile.sources." + name64 + ".secrets", "s"));
        assertTrue(e.getMessage().contains("at most 63 characters"), e.getMessage());
    }

    @Test
    void readsSecretsFromAFileOnePerLine(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("gh-secrets");
        Files.writeString(file, "file-secret-one\r\nfile-secret-two\n", StandardCharsets.UTF_8);

        var sources = sources(Map.of(
                "hookstile.sources", "gh",
                "hookstile.sources.gh.provider", "github",
                "hookstile.sources.gh.secrets-file", file.toString()));

        List<byte[]> secrets = sources.find("gh").orElseThrow().secrets();
        assertEquals(2, secrets.size());
        assertArrayEquals(utf8("file-secret-one"), secrets.get(0));
        assertArrayEquals(utf8("file-secret-two"), secrets.get(1));
    }

    @Test
    void combinesInlineSecretsWithTheSecretsFile(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("gh-secrets");
        Files.writeString(file, "from-file\n", StandardCharsets.UTF_8);

        var sources = sources(Map.of(
                "hookstile.sources", "gh",
                "hookstile.sources.gh.provider", "github",
                "hookstile.sources.gh.secrets", "inline",
                "hookstile.sources.gh.secrets-file", file.toString()));

        List<byte[]> secrets = sources.find("gh").orElseThrow().secrets();
        assertEquals(2, secrets.size());
        assertArrayEquals(utf8("inline"), secrets.get(0));
        assertArrayEquals(utf8("from-file"), secrets.get(1));
    }

    @Test
    void rejectsEmptySecretsFile(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("empty");
        Files.writeString(file, "\n\n", StandardCharsets.UTF_8);

        var e = failure(Map.of(
                "hookstile.sources", "gh",
                "hookstile.sources.gh.provider", "github",
                "hookstile.sources.gh.secrets-file", file.toString()));

        assertTrue(e.getMessage().contains("HOOKSTILE_SOURCES_GH_SECRETS_FILE"), e.getMessage());
    }

    @Test
    void rejectsSecretsFileThatCannotBeRead(@TempDir Path dir) {
        Path missing = dir.resolve("does-not-exist");

        var e = failure(Map.of(
                "hookstile.sources", "gh",
                "hookstile.sources.gh.provider", "github",
                "hookstile.sources.gh.secrets-file", missing.toString()));

        assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
    }

    @Test
    void defaultsTheToleranceTo300Seconds() {
        var sources = sources(Map.of(
                "hookstile.sources", "billing",
                "hookstile.sources.billing.provider", "stripe",
                "hookstile.sources.billing.secrets", "whsec_abc"));

        assertEquals(Duration.ofSeconds(300), sources.find("billing").orElseThrow().tolerance());
    }

    @Test
    void readsAToleranceOverride() {
        var sources = sources(Map.of(
                "hookstile.sources", "billing",
                "hookstile.sources.billing.provider", "stripe",
                "hookstile.sources.billing.secrets", "whsec_abc",
                "hookstile.sources.billing.tolerance-seconds", "60"));

        assertEquals(Duration.ofSeconds(60), sources.find("billing").orElseThrow().tolerance());
    }

    @Test
    void rejectsZeroTolerance() {
        var e = failure(Map.of(
                "hookstile.sources", "billing",
                "hookstile.sources.billing.provider", "stripe",
                "hookstile.sources.billing.secrets", "whsec_abc",
                "hookstile.sources.billing.tolerance-seconds", "0"));

        assertTrue(e.getMessage().contains("tolerance-seconds"), e.getMessage());
    }

    @Test
    void rejectsNegativeTolerance() {
        var e = failure(Map.of(
                "hookstile.sources", "billing",
                "hookstile.sources.billing.provider", "stripe",
                "hookstile.sources.billing.secrets", "whsec_abc",
                "hookstile.sources.billing.tolerance-seconds", "-300"));
        assertTrue(e.getMessage().contains("HOOKSTILE_SOURCES_BILLING_TOLERANCE_SECONDS"), e.getMessage());
    }

    @Test
    void sourceToStringNeverShowsTheSecrets() {
        var sources = sources(Map.of(
                "hookstile.sources", "gh, billing",
                "hookstile.sources.gh.provider", "github",
                "hookstile.sources.gh.secrets", "gh-very-secret-value, gh-other-secret",
                "hookstile.sources.billing.provider", "stripe",
                "hookstile.sources.billing.secrets", "whsec_stripe-secret-value"));

        for (Source source : sources.all()) {
            String text = source.toString();
            assertTrue(text.contains(source.name()), text);
            assertFalse(text.contains("secret-value"), text);
            assertFalse(text.contains("gh-other-secret"), text);
            assertFalse(text.contains("whsec_"), text);
        }
        assertFalse(sources.all().toString().contains("secret-value"));
    }

    @Test
    void errorMessagesNeverShowTheSecrets() {
        var e = failure(Map.of(
                "hookstile.sources", "gh",
                "hookstile.sources.gh.provider", "gitlab",
                "hookstile.sources.gh.secrets", "gh-very-secret-value"));

        assertFalse(e.getMessage().contains("gh-very-secret-value"), e.getMessage());
    }

    @Test
    void readsMaxAttemptsPerSourceWithTheGlobalDefaultForOthers() {
        Sources sources = sources(Map.of(
                "hookstile.sources", "gh,pay",
                "hookstile.processing.max-attempts", "4",
                "hookstile.sources.gh.provider", "github",
                "hookstile.sources.gh.secrets", "s",
                "hookstile.sources.gh.max-attempts", "2",
                "hookstile.sources.pay.provider", "stripe",
                "hookstile.sources.pay.secrets", "whsec_x"));

        assertEquals(2, sources.find("gh").orElseThrow().maxAttempts());
        assertEquals(4, sources.find("pay").orElseThrow().maxAttempts());
        assertEquals(4, sources.defaultMaxAttempts());
    }

    @Test
    void defaultsMaxAttemptsToEight() {
        assertEquals(8, sources(Map.of("hookstile.sources", "gh", "hookstile.sources.gh.provider", "github",
                "hookstile.sources.gh.secrets", "s")).find("gh").orElseThrow().maxAttempts());
    }

    @Test
    void rejectsMaxAttemptsBelowOneNamingTheVariable() {
        SourceConfigurationException failure = failure(Map.of("hookstile.sources", "gh",
                "hookstile.sources.gh.provider", "github", "hookstile.sources.gh.secrets", "s",
                "hookstile.sources.gh.max-attempts", "0"));

        assertTrue(failure.getMessage().contains("HOOKSTILE_SOURCES_GH_MAX_ATTEMPTS"), failure.getMessage());
    }

    @Test
    void readsInProcessRetriesPerSourceWithTheGlobalDefaultForOthers() {
        Sources sources = sources(Map.of(
                "hookstile.sources", "gh,pay",
                "hookstile.processing.retries", "1",
                "hookstile.sources.gh.provider", "github",
                "hookstile.sources.gh.secrets", "s",
                "hookstile.sources.gh.retries", "0",
                "hookstile.sources.pay.provider", "stripe",
                "hookstile.sources.pay.secrets", "whsec_x"));

        assertEquals(0, sources.find("gh").orElseThrow().retries());
        assertEquals(1, sources.find("pay").orElseThrow().retries());
    }

    @Test
    void defaultsInProcessRetriesToTwo() {
        assertEquals(2, sources(Map.of("hookstile.sources", "gh", "hookstile.sources.gh.provider", "github",
                "hookstile.sources.gh.secrets", "s")).find("gh").orElseThrow().retries());
    }

    @Test
    void rejectsMoreInProcessRetriesThanTheCapNamingTheVariable() {
        SourceConfigurationException failure = failure(Map.of("hookstile.sources", "gh",
                "hookstile.sources.gh.provider", "github", "hookstile.sources.gh.secrets", "s",
                "hookstile.sources.gh.retries", "11"));

        assertTrue(failure.getMessage().contains("HOOKSTILE_SOURCES_GH_RETRIES"), failure.getMessage());
    }

    /** Every provider, with a minimal valid configuration of its own. */
    private static final Map<String, Map<String, String>> EVERY_PROVIDER = Map.of(
            "github", Map.of(),
            "shopify", Map.of(),
            "twilio", Map.of("public-url", "https://hooks.example.test/webhooks/s"),
            "hmac", Map.of("signature-header", "X-Signature", "event-id-header", "X-Id"),
            "stripe", Map.of(),
            "slack", Map.of(),
            "standard-webhooks", Map.of(),
            "svix", Map.of(),
            "meta", Map.of());

    private static Source only(String provider, Map<String, String> settings, Map<String, String> more) {
        var values = new java.util.HashMap<String, String>();
        values.put("hookstile.sources", "s");
        values.put("hookstile.sources.s.provider", provider);
        values.put("hookstile.sources.s.secrets", provider.equals("standard-webhooks") || provider.equals("svix")
                ? "whsec_" + Base64.getEncoder().encodeToString(utf8("twenty-four-byte-secret!")) : "secret");
        settings.forEach((k, v) -> values.put("hookstile.sources.s." + k, v));
        values.putAll(more);
        return sources(values).find("s").orElseThrow();
    }

    @Test
    void deduplicatesBodiesByDefaultWithinTheSendersRetryWindowWhereTheIdOrTypeIsUnsigned() {
        var windows = new java.util.TreeMap<String, Duration>();
        EVERY_PROVIDER.forEach((provider, settings) ->
                windows.put(provider, only(provider, settings, Map.of()).bodyDedupWindow()));

        assertEquals(new java.util.TreeMap<>(Map.of(
                "github", Duration.ofDays(3),   // X-GitHub-Delivery and X-GitHub-Event are outside the signature
                "shopify", Duration.ofDays(1),  // X-Shopify-Webhook-Id and X-Shopify-Topic too
                "twilio", Duration.ofDays(1),   // I-Twilio-Idempotency-Token
                "hmac", Duration.ofDays(7),     // an id (or type) header
                "stripe", Duration.ZERO,        // id, type and a timestamp all signed
                "slack", Duration.ZERO,
                "standard-webhooks", Duration.ZERO,
                "svix", Duration.ZERO,
                "meta", Duration.ZERO)), windows);
    }

    @Test
    void anHmacSourceWhoseIdAndTypeComeFromTheSignedBodyNeedsNoBodyWindow() {
        var pointers = Map.of("signature-header", "X-Signature", "event-id-pointer", "/id", "type-pointer", "/type");
        var typeHeader = Map.of("signature-header", "X-Signature", "event-id-pointer", "/id", "type-header", "X-Type");

        assertEquals(Duration.ZERO, only("hmac", pointers, Map.of()).bodyDedupWindow());
        assertEquals(Duration.ofDays(7), only("hmac", typeHeader, Map.of()).bodyDedupWindow());
    }

    @Test
    void anOperatorMayChooseAnotherBodyWindowOrNone() {
        assertEquals(Duration.ofDays(30), only("shopify", Map.of(),
                Map.of("hookstile.sources.s.body-dedup-window-seconds", "2592000")).bodyDedupWindow());
        assertEquals(Duration.ZERO, only("github", Map.of(),
                Map.of("hookstile.sources.s.body-dedup-window-seconds", "0")).bodyDedupWindow());
    }

    @Test
    void warnsOnceAtStartWhenAnOperatorTurnsBodyDeduplicationOffOrShortensIt() {
        var warnings = new ArrayList<String>();
        var logger = java.util.logging.Logger.getLogger(Sources.class.getName());
        var handler = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord record) {
                if (record.getLevel() == java.util.logging.Level.WARNING) {
                    warnings.add(record.getMessage());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        logger.addHandler(handler);
        try {
            sources(Map.ofEntries(
                    Map.entry("hookstile.sources", "off, short, stripe, shop"),
                    Map.entry("hookstile.sources.off.provider", "github"),
                    Map.entry("hookstile.sources.off.secrets", "a-secret-of-32-characters-long!!"),
                    Map.entry("hookstile.sources.off.body-dedup-window-seconds", "0"),
                    Map.entry("hookstile.sources.short.provider", "twilio"),
                    Map.entry("hookstile.sources.short.secrets", "a-secret-of-32-characters-long!!"),
                    Map.entry("hookstile.sources.short.public-url", "https://hooks.example.test/webhooks/short"),
                    Map.entry("hookstile.sources.short.body-dedup-window-seconds", "60"),
                    Map.entry("hookstile.sources.stripe.provider", "stripe"),
                    Map.entry("hookstile.sources.stripe.secrets", "whsec_a-secret-of-32-characters-long"),
                    Map.entry("hookstile.sources.stripe.body-dedup-window-seconds", "0"),
                    Map.entry("hookstile.sources.shop.provider", "shopify"),
                    Map.entry("hookstile.sources.shop.secrets", "a-secret-of-32-characters-long!!")));
        } finally {
            logger.removeHandler(handler);
        }

        assertEquals(2, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("HOOKSTILE_SOURCES_OFF_BODY_DEDUP_WINDOW_SECONDS=0 turns body deduplication off"),
                warnings.get(0));
        assertTrue(warnings.get(1).contains("HOOKSTILE_SOURCES_SHORT_BODY_DEDUP_WINDOW_SECONDS=60 is shorter than 86400 s"),
                warnings.get(1));
    }

    @Test
    void metaEntriesMayBeAsOldAsItsRetriesUnlessTheSourceSaysOtherwise() {
        assertEquals(Duration.ofDays(8), only("meta", Map.of(), Map.of()).tolerance());
        assertEquals(Duration.ofSeconds(300), only("stripe", Map.of(), Map.of()).tolerance());
        assertEquals(Duration.ofHours(1), only("meta", Map.of(),
                Map.of("hookstile.sources.s.tolerance-seconds", "3600")).tolerance());
    }

    @Test
    void rejectsANegativeBodyWindowNamingTheVariable() {
        var e = failure(Map.of(
                "hookstile.sources", "gh",
                "hookstile.sources.gh.provider", "github",
                "hookstile.sources.gh.secrets", "s",
                "hookstile.sources.gh.body-dedup-window-seconds", "-1"));

        assertTrue(e.getMessage().contains("HOOKSTILE_SOURCES_GH_BODY_DEDUP_WINDOW_SECONDS"), e.getMessage());
    }

    @Test
    void rejectsABodyWindowForAProviderThatBatchesEventsInOneBody() {
        // Every event of a Meta batch shares the body: with the option all but the first would be ignored.
        var e = failure(Map.of(
                "hookstile.sources", "wa",
                "hookstile.sources.wa.provider", "meta",
                "hookstile.sources.wa.secrets", "s",
                "hookstile.sources.wa.verify-token", "t",
                "hookstile.sources.wa.body-dedup-window-seconds", "3600"));

        assertTrue(e.getMessage().contains("HOOKSTILE_SOURCES_WA_BODY_DEDUP_WINDOW_SECONDS"), e.getMessage());
        assertTrue(e.getMessage().contains("meta"), e.getMessage());
    }

    @Test
    void keepsFinishedEventsThirtyDaysUnlessASourceOrTheDefaultSaysOtherwise() {
        var sources = sources(Map.of(
                "hookstile.sources", "pay, shop",
                "hookstile.sources.pay.provider", "stripe",
                "hookstile.sources.pay.secrets", "whsec_abc",
                "hookstile.sources.pay.retention-days", "90",
                "hookstile.sources.shop.provider", "shopify",
                "hookstile.sources.shop.secrets", "s"));

        assertEquals(Duration.ofDays(90), sources.find("pay").orElseThrow().retention());
        assertEquals(Duration.ofDays(30), sources.find("shop").orElseThrow().retention());
        assertEquals(Duration.ofDays(7), sources(Map.of(
                "hookstile.retention.days", "7",
                "hookstile.sources", "shop",
                "hookstile.sources.shop.provider", "shopify",
                "hookstile.sources.shop.secrets", "s")).find("shop").orElseThrow().retention());
    }

    @Test
    void neverKeepsEventsLessThanTheSendersRetryWindow() {
        // Stripe retries for 3 days: an event deleted after 1 could come back and be processed again.
        var sources = sources(Map.of(
                "hookstile.sources", "pay",
                "hookstile.sources.pay.provider", "stripe",
                "hookstile.sources.pay.secrets", "whsec_abc",
                "hookstile.sources.pay.retention-days", "1"));

        assertEquals(Duration.ofDays(3), sources.find("pay").orElseThrow().retention());
    }

    @Test
    void zeroDaysKeepsEveryEventAndANegativeNumberIsRefused() {
        assertEquals(Duration.ZERO, sources(Map.of(
                "hookstile.sources", "gh",
                "hookstile.sources.gh.provider", "github",
                "hookstile.sources.gh.secrets", "s",
                "hookstile.sources.gh.retention-days", "0")).find("gh").orElseThrow().retention());
        var e = failure(Map.of(
                "hookstile.sources", "gh",
                "hookstile.sources.gh.provider", "github",
                "hookstile.sources.gh.secrets", "s",
                "hookstile.sources.gh.retention-days", "-1"));
        assertTrue(e.getMessage().contains("HOOKSTILE_SOURCES_GH_RETENTION_DAYS"), e.getMessage());
    }

    @Test
    void readsADestinationWithItsSecretAndTypes() {
        var source = sources(Map.of(
                "hookstile.sources", "pay",
                "hookstile.sources.pay.provider", "stripe",
                "hookstile.sources.pay.secrets", "whsec_abc",
                "hookstile.sources.pay.destination-url", "https://backoffice.example.com/hooks",
                "hookstile.sources.pay.destination-secret", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
                "hookstile.sources.pay.destination-types", "invoice.*, customer.updated")).find("pay").orElseThrow();

        assertEquals("https://backoffice.example.com/hooks", source.destination().url().toString());
        assertTrue(source.destination().forwards("invoice.paid"));
        assertTrue(source.destination().forwards("customer.updated"));
        assertFalse(source.destination().forwards("customer.created"));
        assertFalse(source.toString().contains("MfKQ9r8"), "the destination secret is never printed");
    }

    @Test
    void aDestinationNeedsASecretAndAnHttpUrl() {
        var noSecret = failure(Map.of(
                "hookstile.sources", "pay",
                "hookstile.sources.pay.provider", "stripe",
                "hookstile.sources.pay.secrets", "whsec_abc",
                "hookstile.sources.pay.destination-url", "https://backoffice.example.com/hooks"));
        var notHttp = failure(Map.of(
                "hookstile.sources", "pay",
                "hookstile.sources.pay.provider", "stripe",
                "hookstile.sources.pay.secrets", "whsec_abc",
                "hookstile.sources.pay.destination-url", "ftp://backoffice.example.com/hooks",
                "hookstile.sources.pay.destination-secret", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"));

        assertTrue(noSecret.getMessage().contains("HOOKSTILE_SOURCES_PAY_DESTINATION_SECRET"), noSecret.getMessage());
        assertTrue(notHttp.getMessage().contains("HOOKSTILE_SOURCES_PAY_DESTINATION_URL"), notHttp.getMessage());
    }

    /**
     * An empty key signs nothing: the relay threw on every entry of the source, holding each batch it was in. Refused
     * at start, naming the setting; so is a secret that is not base64.
     */
    @Test
    void aDestinationSecretWithoutKeyBytesFailsTheStartNamingTheSetting() {
        for (String secret : List.of("whsec_", "whsec_ ", "whsec_%%%")) {
            var empty = failure(Map.of(
                    "hookstile.sources", "pay",
                    "hookstile.sources.pay.provider", "stripe",
                    "hookstile.sources.pay.secrets", "whsec_abc",
                    "hookstile.sources.pay.destination-url", "https://backoffice.example.com/hooks",
                    "hookstile.sources.pay.destination-secret", secret));

            assertTrue(empty.getMessage().contains("HOOKSTILE_SOURCES_PAY_DESTINATION_SECRET"), empty.getMessage());
            assertFalse(empty.getMessage().contains("%%%"), "the secret is never printed: " + empty.getMessage());
        }
    }

    /**
     * A signing key of a byte or a few is guessed, and with it every forwarded request forged: under 16 key bytes
     * refuses the start, naming the setting by its variable and its property, never quoting the secret.
     */
    @Test
    void aDestinationSecretUnderSixteenKeyBytesFailsTheStartNamingTheSetting() {
        for (int bytes : new int[]{1, 15}) {
            String secret = "whsec_" + Base64.getEncoder().encodeToString(utf8("k".repeat(bytes)));
            var tooShort = failure(Map.of(
                    "hookstile.sources", "pay",
                    "hookstile.sources.pay.provider", "stripe",
                    "hookstile.sources.pay.secrets", "whsec_abc",
                    "hookstile.sources.pay.destination-url", "https://backoffice.example.com/hooks",
                    "hookstile.sources.pay.destination-secret", secret));

            String message = tooShort.getMessage();
            assertTrue(message.contains("HOOKSTILE_SOURCES_PAY_DESTINATION_SECRET"), message);
            assertTrue(message.contains("hookstile.sources.pay.destination-secret"), message);
            assertTrue(message.contains(bytes + " key bytes") && message.contains("16"), message);
            assertFalse(message.contains(secret.substring(6)), "the secret is never printed: " + message);
        }
        String sixteen = "whsec_" + Base64.getEncoder().encodeToString(utf8("k".repeat(16)));
        assertEquals(16, sources(Map.of(
                "hookstile.sources", "pay",
                "hookstile.sources.pay.provider", "stripe",
                "hookstile.sources.pay.secrets", "whsec_abc",
                "hookstile.sources.pay.destination-url", "https://backoffice.example.com/hooks",
                "hookstile.sources.pay.destination-secret", sixteen)).find("pay").orElseThrow().destination()
                .secret().length);
    }

    @Test
    void readsTheOrderKeyOfEachEventFromTheBodyAtTheConfiguredPointer() {
        Source source = sources(Map.of(
                "hookstile.sources", "billing",
                "hookstile.sources.billing.provider", "stripe",
                "hookstile.sources.billing.secrets", "whsec_abc",
                "hookstile.sources.billing.order-key", "/data/object/customer")).find("billing").orElseThrow();

        assertEquals("cus_1", source.orderKeyOf(utf8("{\"data\":{\"object\":{\"customer\":\"cus_1\"}}}")));
        assertEquals("42", source.orderKeyOf(utf8("{\"data\":{\"object\":{\"customer\":42}}}")), "a number");
        assertEquals(null, source.orderKeyOf(utf8("{\"data\":{}}")), "no value: processed unordered");
        assertEquals(null, source.orderKeyOf(utf8("not json")), "not JSON: processed unordered");
        assertEquals(255, source.orderKeyOf(utf8("{\"data\":{\"object\":{\"customer\":\"" + "k".repeat(300)
                + "\"}}}")).length(), "cut to the column's length");
    }

    @Test
    void ordersNothingWithoutAnOrderKey() {
        Source source = sources(Map.of(
                "hookstile.sources", "gh",
                "hookstile.sources.gh.provider", "github",
                "hookstile.sources.gh.secrets", "s")).find("gh").orElseThrow();

        assertEquals(null, source.orderKeyOf(utf8("{\"customer\":\"c\"}")));
    }

    @Test
    void rejectsAnOrderKeyThatIsNotAJsonPointer() {
        var e = failure(Map.of(
                "hookstile.sources", "gh",
                "hookstile.sources.gh.provider", "github",
                "hookstile.sources.gh.secrets", "s",
                "hookstile.sources.gh.order-key", "customer"));

        assertTrue(e.getMessage().contains("HOOKSTILE_SOURCES_GH_ORDER_KEY"), e.getMessage());
    }

    @Test
    void listsEveryProblemOfEverySourceEachNamingItsVariableAndProperty() {
        var e = failure(Map.of(
                "hookstile.sources", "pay,gh,Bad Name",
                "hookstile.sources.pay.provider", "strype",
                "hookstile.sources.pay.secrets", "whsec_abcdefghijklmnopqrstuvwxyz",
                "hookstile.sources.gh.provider", "github",
                "hookstile.sources.gh.secrets", "gh-secret-value-long-enough",
                "hookstile.sources.gh.max-attempts", "eight",
                "hookstile.processing.retries", "-1"));

        assertEquals(List.of(
                "HOOKSTILE_PROCESSING_RETRIES (hookstile.processing.retries): must be between 0 and "
                        + Source.MAX_RETRIES + ", not -1",
                "HOOKSTILE_SOURCES_PAY_PROVIDER (hookstile.sources.pay.provider): unknown provider 'strype' ("
                        + String.join(", ", Providers.names()) + ")",
                "HOOKSTILE_SOURCES_GH_MAX_ATTEMPTS (hookstile.sources.gh.max-attempts): 'eight' is not a whole number",
                "HOOKSTILE_SOURCES (hookstile.sources): the source name 'Bad Name' is invalid: use lower-case letters,"
                        + " digits and '-', at most 63 characters"), e.problems());
        assertEquals(String.join("\n", e.problems()), e.getMessage());
    }
}
