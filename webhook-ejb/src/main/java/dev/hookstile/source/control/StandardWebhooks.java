package dev.hookstile.source.control;

import dev.hookstile.source.Delivery;
import dev.hookstile.source.Ed25519;
import dev.hookstile.source.InvalidSetting;
import dev.hookstile.source.JsonFields;
import dev.hookstile.source.Provider;
import dev.hookstile.source.RejectedDelivery;
import dev.hookstile.source.Rejection;
import dev.hookstile.source.VerifiedDelivery;
import dev.hookstile.source.Source;

import java.nio.charset.StandardCharsets;
import java.security.PublicKey;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Standard Webhooks (standardwebhooks.com, as Svix, Clerk, Resend and others send it): headers {@code webhook-id},
 * {@code webhook-timestamp} and {@code webhook-signature} (space-separated {@code v1,<base64>} entries),
 * HMAC-SHA256 over {@code id + "." + timestamp + "." + body}, keyed with the base64 part of a {@code whsec_} secret;
 * or {@code v1a,<base64>} entries, Ed25519 over the same, verified with the source's public keys
 * ({@code _PUBLIC_KEYS}, {@code whpk_...}, {@link Ed25519}). Any valid entry of either kind counts, so a source may
 * hold secrets and public keys while its sender moves from one to the other. The event id is {@code webhook-id}; the
 * type the JSON {@code type}.
 *
 * <p>Svix, and the senders built on it, sign exactly so under {@code svix-} headers ({@code webhook-} only where Svix
 * white-labels them), so one implementation serves both, told apart by the header prefix.
 */
final class StandardWebhooks implements Provider {

    private static final String SECRET_PREFIX = "whsec_";
    private static final Set<String> FIELDS = Set.of("type");
    /** {@code hookstile.sources.<name>.public-keys}: comma-separated {@code whpk_} keys, more than one in a rotation. */
    static final String PUBLIC_KEYS = "public-keys";
    /**
     * The most {@code v1a} entries of one header checked: an Ed25519 verification with the JDK's implementation costs
     * about 1.2 ms, a thousand HMACs (docs/security.md), and a sender signs with one key, two while it rotates; a
     * header stuffed with entries must not buy CPU by the dozen.
     */
    static final int MAX_V1A_ENTRIES = 2;
    /** The configured keys, parsed once per distinct setting (a handful of sources). */
    private static final Map<String, List<PublicKey>> KEYS = new ConcurrentHashMap<>();

    private final String name;
    private final String idHeader;
    private final String timestampHeader;
    private final String signatureHeader;
    private final List<String> retained;
    private final Set<String> signatureHeaders;

    /** The specification's own {@code webhook-} headers. */
    StandardWebhooks() {
        this("standard-webhooks", "webhook-");
    }

    /**
     * @param name         the provider name a source configuration uses
     * @param headerPrefix lower case: {@code svix-} reads {@code svix-id}, {@code svix-timestamp} and
     *                     {@code svix-signature}
     */
    StandardWebhooks(String name, String headerPrefix) {
        this.name = name;
        this.idHeader = headerPrefix + "id";
        this.timestampHeader = headerPrefix + "timestamp";
        this.signatureHeader = headerPrefix + "signature";
        this.retained = List.of(idHeader, timestampHeader, signatureHeader, "Content-Type", "User-Agent");
        this.signatureHeaders = Set.of(signatureHeader);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String signingScheme(Map<String, String> settings) {
        String scheme = ("svix".equals(name) ? "Svix" : "Standard Webhooks")
                + ": HMAC-SHA256 of “id.timestamp.body” (" + signatureHeader + ")";
        return verifiesWithoutSecrets(settings) ? scheme + ", or Ed25519 of the same with a public key (v1a)" : scheme;
    }

    /** Standard Webhooks senders (Svix's schedule) retry for about a day, and resend by hand: 3 days. */
    @Override
    public Duration retryWindow() {
        return Duration.ofDays(3);
    }

    @Override
    public byte[] decodeSecret(String secret) {
        String encoded = secret.startsWith(SECRET_PREFIX) ? secret.substring(SECRET_PREFIX.length()) : secret;
        return Base64.getDecoder().decode(encoded);
    }

    @Override
    public Set<String> settingNames() {
        return Set.of(PUBLIC_KEYS);
    }

    @Override
    public void checkSettings(Map<String, String> settings) throws InvalidSetting {
        String keys = settings.get(PUBLIC_KEYS);
        if (keys == null) {
            return;
        }
        if (keys.isBlank()) {
            throw new InvalidSetting(PUBLIC_KEYS, "must not be blank: set whpk_ public keys or leave it out");
        }
        try {
            publicKeys(keys);
        } catch (IllegalArgumentException e) {
            throw new InvalidSetting(PUBLIC_KEYS, "holds a key that " + e.getMessage());
        }
    }

    /** Public keys verify on their own: a source that only receives {@code v1a} signatures has no secret. */
    @Override
    public boolean verifiesWithoutSecrets(Map<String, String> settings) {
        return settings.get(PUBLIC_KEYS) != null && !settings.get(PUBLIC_KEYS).isBlank();
    }

    private static List<PublicKey> publicKeys(String setting) {
        List<PublicKey> keys = KEYS.get(setting);
        if (keys == null) {
            keys = Arrays.stream(setting.split(",")).map(String::trim).filter(k -> !k.isEmpty())
                    .map(Ed25519::publicKey).toList();
            KEYS.put(setting, keys);
        }
        return keys;
    }

    @Override
    public VerifiedDelivery verify(Delivery delivery, Source source) throws RejectedDelivery {
        String header = Hmac.requiredHeader(delivery, signatureHeader);
        String id = delivery.header(idHeader);
        if (id == null || id.isEmpty()) {
            throw new RejectedDelivery(Rejection.MISSING_EVENT_ID, "the " + idHeader + " header is missing");
        }
        String timestamp = delivery.header(timestampHeader);
        if (timestamp == null) {
            throw new RejectedDelivery(Rejection.INVALID_TIMESTAMP,
                    "the " + timestampHeader + " header is missing");
        }
        long signedAt = Timestamps.epochSeconds(timestamp, timestampHeader);
        byte[] prefix = (id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8);
        String keySetting = source.settings().get(PUBLIC_KEYS);
        List<PublicKey> keys = keySetting == null ? List.of() : publicKeys(keySetting);
        List<byte[]> secrets = source.secrets();
        byte[][] expected = new byte[secrets.size()][];
        boolean sawEntry = false;
        boolean valid = false;
        String[] entries = header.trim().split(" +");
        // The HMACs first: a microsecond each, where an Ed25519 verification costs about a millisecond.
        for (int e = 0; e < entries.length && !valid && !secrets.isEmpty(); e++) {
            if (entries[e].startsWith("v1,")) {
                sawEntry = true;
                byte[] signature = base64OrNull(entries[e].substring(3));
                for (int i = 0; i < secrets.size() && !valid; i++) {
                    if (expected[i] == null) {
                        expected[i] = Hmac.compute(Hmac.SHA256, secrets.get(i), prefix, delivery.body());
                    }
                    valid = Hmac.equal(expected[i], signature);
                }
            }
        }
        int asymmetric = 0;
        for (int e = 0; e < entries.length && !valid && !keys.isEmpty() && asymmetric < MAX_V1A_ENTRIES; e++) {
            if (entries[e].startsWith("v1a,")) {
                sawEntry = true;
                asymmetric++;
                byte[] signature = base64OrNull(entries[e].substring(4));
                for (int i = 0; i < keys.size() && !valid; i++) {
                    valid = Ed25519.verify(keys.get(i), prefix, delivery.body(), signature);
                }
            }
        }
        String kinds = secrets.isEmpty() ? "'v1a,<base64>'" : keys.isEmpty() ? "'v1,<base64>'"
                : "'v1,<base64>' or 'v1a,<base64>'";
        if (!sawEntry) {
            throw new RejectedDelivery(Rejection.MALFORMED_SIGNATURE, signatureHeader + " has no " + kinds + " entry");
        }
        if (!valid) {
            throw new RejectedDelivery(Rejection.INVALID_SIGNATURE, "no " + kinds.replace(",<base64>", "")
                    .replace("'", "") + " signature in " + signatureHeader + " matches the body under any configured "
                    + (secrets.isEmpty() ? "public key" : keys.isEmpty() ? "secret" : "secret or public key"));
        }
        Timestamps.requireWithin(signedAt, delivery.receivedAt(), source.tolerance());
        Map<String, String> fields = JsonFields.topLevel(delivery.body(), FIELDS);
        return VerifiedDelivery.event(id, fields.getOrDefault("type", ""),
                delivery.retain(retained, signatureHeaders));
    }

    private static byte[] base64OrNull(String text) {
        try {
            return Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
