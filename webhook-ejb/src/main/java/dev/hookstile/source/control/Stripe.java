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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Stripe: {@code Stripe-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>...]}, HMAC-SHA256 keyed with the whole
 * {@code whsec_...} endpoint secret over {@code t + "." + body}. Several {@code v1} entries appear while Stripe
 * rolls a secret; any one matching any configured secret is enough. The event id and type are the JSON
 * {@code id} and {@code type}.
 */
final class Stripe implements Provider {

    static final String SIGNATURE = "Stripe-Signature";
    private static final List<String> RETAINED = List.of(SIGNATURE, "Content-Type", "User-Agent");
    private static final Set<String> SIGNATURES = Set.of("stripe-signature");
    private static final Set<String> FIELDS = Set.of("id", "type");

    @Override
    public String name() {
        return "stripe";
    }

    @Override
    public String signingScheme(Map<String, String> settings) {
        return "HMAC-SHA256 of “timestamp.body” (Stripe-Signature)";
    }

    /** Stripe retries a failed delivery for up to 3 days. */
    @Override
    public Duration retryWindow() {
        return Duration.ofDays(3);
    }

    @Override
    public VerifiedDelivery verify(Delivery delivery, Source source) throws RejectedDelivery {
        String header = Hmac.requiredHeader(delivery, SIGNATURE);
        String timestamp = null;
        List<byte[]> signatures = new ArrayList<>(2);
        for (String item : header.split(",")) {
            int eq = item.indexOf('=');
            if (eq <= 0) {
                continue;
            }
            String key = item.substring(0, eq).trim();
            String value = item.substring(eq + 1).trim();
            if (key.equals("t")) {
                timestamp = value;
            } else if (key.equals("v1")) {
                byte[] signature = Hmac.hexOrNull(value, 32);
                if (signature == null) {
                    throw new RejectedDelivery(Rejection.MALFORMED_SIGNATURE, "a v1 signature in " + SIGNATURE
                            + " is not 64 hexadecimal digits");
                }
                signatures.add(signature);
            }
        }
        if (timestamp == null) {
            throw new RejectedDelivery(Rejection.MALFORMED_SIGNATURE, SIGNATURE + " has no t= timestamp");
        }
        if (signatures.isEmpty()) {
            throw new RejectedDelivery(Rejection.MALFORMED_SIGNATURE, SIGNATURE + " has no v1= signature");
        }
        long signedAt = Timestamps.epochSeconds(timestamp, SIGNATURE + " t=");
        byte[] prefix = (timestamp + ".").getBytes(StandardCharsets.US_ASCII);
        boolean valid = false;
        for (byte[] secret : source.secrets()) {
            byte[] expected = Hmac.compute(Hmac.SHA256, secret, prefix, delivery.body());
            for (byte[] given : signatures) {
                valid |= Hmac.equal(expected, given);
            }
        }
        if (!valid) {
            throw new RejectedDelivery(Rejection.INVALID_SIGNATURE,
                    "no v1 signature in " + SIGNATURE + " matches the body under any configured secret");
        }
        Timestamps.requireWithin(signedAt, delivery.receivedAt(), source.tolerance());
        Map<String, String> fields = JsonFields.topLevel(delivery.body(), FIELDS);
        String id = fields.get("id");
        if (id == null || id.isEmpty()) {
            throw new RejectedDelivery(Rejection.MISSING_EVENT_ID, "the JSON body has no \"id\"");
        }
        return VerifiedDelivery.event(id, fields.getOrDefault("type", ""), delivery.retain(RETAINED, SIGNATURES));
    }

    /** Visible for tests: the header Stripe would send for this body. */
    static String sign(byte[] secret, long timestamp, byte[] body) {
        byte[] mac = Hmac.compute(Hmac.SHA256, secret, (timestamp + ".").getBytes(StandardCharsets.US_ASCII), body);
        return "t=" + timestamp + ",v1=" + Hmac.hex(mac);
    }

}
