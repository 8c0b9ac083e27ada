package dev.hookstile.source.control;

import dev.hookstile.source.JsonFields;

import dev.hookstile.source.Delivery;
import dev.hookstile.source.Provider;
import dev.hookstile.source.RejectedDelivery;
import dev.hookstile.source.Rejection;
import dev.hookstile.source.VerifiedDelivery;
import dev.hookstile.source.Source;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Standard Webhooks (standardwebhooks.com, as Svix, Clerk, Resend and others send it): headers {@code webhook-id},
 * {@code webhook-timestamp} and {@code webhook-signature} (space-separated {@code v1,<base64>} entries),
 * HMAC-SHA256 over {@code id + "." + timestamp + "." + body}, keyed with the base64 part of a {@code whsec_} secret.
 * The event id is {@code webhook-id}; the type the JSON {@code type}.
 *
 * <p>Svix, and the senders built on it, sign exactly so under {@code svix-} headers ({@code webhook-} only where Svix
 * white-labels them), so one implementation serves both, told apart by the header prefix.
 */
final class StandardWebhooks implements Provider {

    private static final String SECRET_PREFIX = "whsec_";
    private static final Set<String> FIELDS = Set.of("type");

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
        boolean sawV1 = false;
        boolean valid = false;
        for (byte[] secret : source.secrets()) {
            byte[] expected = Hmac.compute(Hmac.SHA256, secret, prefix, delivery.body());
            for (String entry : header.trim().split(" +")) {
                if (!entry.startsWith("v1,")) {
                    continue; // other versions (v1a: asymmetric) are not ours to check
                }
                sawV1 = true;
                valid |= Hmac.equal(expected, base64OrNull(entry.substring(3)));
            }
        }
        if (!sawV1) {
            throw new RejectedDelivery(Rejection.MALFORMED_SIGNATURE,
                    signatureHeader + " has no 'v1,<base64>' entry");
        }
        if (!valid) {
            throw new RejectedDelivery(Rejection.INVALID_SIGNATURE,
                    "no v1 signature in " + signatureHeader + " matches the body under any configured secret");
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
