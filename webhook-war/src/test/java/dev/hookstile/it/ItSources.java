package dev.hookstile.it;

import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.JavaArchive;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.hookstile.it.Webhooks.GITHUB_SECRET;
import static dev.hookstile.it.Webhooks.INHOUSE_SECRET;
import static dev.hookstile.it.Webhooks.META_SECRET;
import static dev.hookstile.it.Webhooks.META_VERIFY_TOKEN;
import static dev.hookstile.it.Webhooks.SHOPIFY_SECRET;
import static dev.hookstile.it.Webhooks.SLACK_SECRET;
import static dev.hookstile.it.Webhooks.STANDARD_SECRET;
import static dev.hookstile.it.Webhooks.STRIPE_SECRET;
import static dev.hookstile.it.Webhooks.TWILIO_TOKEN;

/**
 * The sources the integration tests send to, with the secrets {@link Webhooks} signs with, declared here beside the
 * tests and written into the archive under test ({@link Deployments}) as a {@code microprofile-config.properties}
 * of its own, configured as a user would configure them. Its ordinal, {@value #ORDINAL}, is below the environment's
 * (300): a test that starts a server of its own ({@link ServerProcess}) changes or adds a source with an environment
 * variable, as an operator would.
 */
public final class ItSources {

    static final int ORDINAL = 250;
    /** The destination the forwarding sources send to: OutboxIT's receiver. */
    public static final String FORWARD_TO = "http://127.0.0.1:18771/hooks";
    private static final String DESTINATION_SECRET = "whsec_dGVzdC1kZXN0aW5hdGlvbi1zZWNyZXQtMzItYnl0ZXMh";

    private static final Map<String, Map<String, String>> SOURCES = new LinkedHashMap<>();

    static {
        // Events found by their customer and order id (SearchIT, ConsoleIT).
        source("it", "standard-webhooks", STANDARD_SECRET, "max-attempts", "5", "search-keys", "/customer,/order/id");
        // No test handler selects it: its events are recorded ignored.
        source("quiet", "standard-webhooks", STANDARD_SECRET);
        // Forwards what it processes through the outbox to OutboxIT's receiver.
        source("fwd", "standard-webhooks", STANDARD_SECRET, "destination-url", FORWARD_TO,
                "destination-secret", DESTINATION_SECRET);
        // Forwards signed v1a with an Ed25519 key only (OutboxIT): its destination verifies with the public key.
        source("fwdkey", "standard-webhooks", STANDARD_SECRET, "destination-url", FORWARD_TO,
                "destination-signing-key", Webhooks.STANDARD_SIGNING_KEY);
        // At most 20 forwardings a second, two at once (OutboxIT).
        source("fwdpace", "standard-webhooks", STANDARD_SECRET, "destination-url", FORWARD_TO,
                "destination-secret", DESTINATION_SECRET, "destination-rate", "20/s", "destination-concurrency", "2");
        // Paused and resumed by OutboxIT alone, so no other test waits on its forwardings.
        source("fwdhold", "standard-webhooks", STANDARD_SECRET, "destination-url", FORWARD_TO,
                "destination-secret", DESTINATION_SECRET);
        // Forwards only the events whose body says livemode (OutboxIT); the others are recorded not forwarded.
        source("fwdlive", "standard-webhooks", STANDARD_SECRET, "destination-url", FORWARD_TO,
                "destination-secret", DESTINATION_SECRET, "destination-filter", "{\"data\":{\"object\":{\"livemode\":true}}}");
        // Its handler (EffectSender) posts effects through the Outbox API (OutboxIT).
        source("fx", "standard-webhooks", STANDARD_SECRET);
        // Publishes its invoice events to a back-office queue on the broker (BackOfficeIT).
        source("bo", "standard-webhooks", STANDARD_SECRET, "destination-jms", "queue:backoffice.invoices",
                "destination-types", "invoice.*");
        // Events with the same "customer" are processed in order, one at a time (OrderingIT); a failure goes straight
        // to the broker's redelivery.
        source("ord", "standard-webhooks", STANDARD_SECRET, "order-key", "/customer", "retries", "0");
        // Its destination always answers 503: OutboxIT watches the breaker open.
        source("fwddown", "standard-webhooks", STANDARD_SECRET, "destination-url", "http://127.0.0.1:18771/down",
                "destination-secret", DESTINATION_SECRET);
        // Body deduplication off (a warning at start): ProcessingIT compares it with ghbody.
        source("gh", "github", "it-github-old-secret," + GITHUB_SECRET, "retries", "0",
                "body-dedup-window-seconds", "0");
        // Retention below GitHub's redelivery window on purpose: RetentionIT checks it is raised to 3 days.
        source("ghbody", "github", GITHUB_SECRET, "body-dedup-window-seconds", "3600", "retention-days", "1");
        // Refused on purpose, each by one test only: only the first few refusals of a source, reason and minute are
        // kept, and the other tests' floods of bad signatures to gh would use them up (RejectionsIT, ConsoleIT). The last
        // two keep refused bodies.
        source("ghkept", "github", GITHUB_SECRET);
        source("ghshown", "github", GITHUB_SECRET, "keep-refused-bodies", "true");
        source("ghbodies", "github", GITHUB_SECRET, "keep-refused-bodies", "true");
        source("pay", "stripe", STRIPE_SECRET, "tolerance-seconds", "300");
        source("shop", "shopify", SHOPIFY_SECRET);
        source("slack", "slack", SLACK_SECRET);
        // Required for twilio: the URL Twilio was given, which Webhooks.twilio signs.
        source("tw", "twilio", TWILIO_TOKEN, "public-url", "https://hooks.example.test/webhooks/tw");
        source("wa", "meta", META_SECRET, "verify-token", META_VERIFY_TOKEN);
        source("svix", "svix", STANDARD_SECRET);
        // Ed25519 only: its sender signs v1a, the source holds the public key and no secret (ProvidersIT).
        source("swkeys", "standard-webhooks", "", "public-keys",
                dev.hookstile.test.Deliveries.publicKeyOf(Webhooks.STANDARD_SIGNING_KEY));
        source("inhouse", "hmac", INHOUSE_SECRET, "signature-header", "X-Signature", "algorithm", "sha512",
                "encoding", "base64", "signature-prefix", "sha512=", "event-id-pointer", "/meta/id",
                "type-pointer", "/meta/kind");
    }

    /** The names, as {@code HOOKSTILE_SOURCES} lists them. */
    public static final String NAMES = String.join(",", SOURCES.keySet());

    private ItSources() {
    }

    private static void source(String name, String provider, String secrets, String... settings) {
        var source = new LinkedHashMap<String, String>();
        source.put("provider", provider);
        source.put("secrets", secrets);
        for (int i = 0; i < settings.length; i += 2) {
            source.put(settings[i], settings[i + 1]);
        }
        SOURCES.put(name, source);
    }

    /** The settings as MicroProfile Config properties. */
    static List<String> properties() {
        var lines = new ArrayList<String>();
        lines.add("config_ordinal=" + ORDINAL);
        lines.add("hookstile.sources=" + NAMES);
        SOURCES.forEach((name, settings) -> settings.forEach((key, value) ->
                lines.add("hookstile.sources." + name + "." + key + "=" + value.replace("\\", "\\\\"))));
        return lines;
    }

    /** A jar for the archive's {@code WEB-INF/lib}, holding the settings. */
    static JavaArchive jar() {
        return ShrinkWrap.create(JavaArchive.class, "it-sources.jar").addAsManifestResource(
                new StringAsset(String.join("\n", properties()) + "\n"), "microprofile-config.properties");
    }
}
