package dev.hookstile.source.control;

import dev.hookstile.source.Delivery;
import dev.hookstile.source.Provider;
import dev.hookstile.source.RejectedDelivery;
import dev.hookstile.source.Rejection;
import dev.hookstile.source.VerifiedDelivery;
import dev.hookstile.source.Source;

import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Shopify: {@code X-Shopify-Hmac-Sha256: <base64 HMAC-SHA256 of the body>}, keyed with the app's client secret.
 * The event id is {@code X-Shopify-Webhook-Id}, else {@code X-Shopify-Event-Id}; the type is
 * {@code X-Shopify-Topic}. Shopify signs no timestamp, so there is no replay window to enforce here: a replayed
 * delivery carries the same id and is caught by deduplication.
 */
final class Shopify implements Provider {

    static final String SIGNATURE = "X-Shopify-Hmac-Sha256";
    private static final List<String> RETAINED = List.of("X-Shopify-Topic", "X-Shopify-Shop-Domain",
            "X-Shopify-Webhook-Id", "X-Shopify-Event-Id", "X-Shopify-Triggered-At", "X-Shopify-API-Version",
            SIGNATURE, "Content-Type", "User-Agent");
    private static final Set<String> SIGNATURES = Set.of("x-shopify-hmac-sha256");

    @Override
    public String name() {
        return "shopify";
    }

    @Override
    public String signingScheme(Map<String, String> settings) {
        return "HMAC-SHA256 of the body, base64 (X-Shopify-Hmac-Sha256)";
    }

    /** Shopify retries a failed delivery for a few hours. */
    @Override
    public Duration retryWindow() {
        return Duration.ofDays(1);
    }

    /** {@code X-Shopify-Webhook-Id} and {@code X-Shopify-Topic} are outside the signature, which covers the body alone. */
    @Override
    public Duration defaultBodyDedupWindow(Map<String, String> settings) {
        return retryWindow();
    }

    @Override
    public VerifiedDelivery verify(Delivery delivery, Source source) throws RejectedDelivery {
        byte[] decoded = base64OrNull(Hmac.requiredHeader(delivery, SIGNATURE));
        byte[] given = Hmac.wellFormed(decoded == null || decoded.length != 32 ? null : decoded,
                SIGNATURE, "the base64 encoding of a 32-byte HMAC-SHA256");
        if (!Hmac.matches(source, Hmac.SHA256, given, delivery.body())) {
            throw new RejectedDelivery(Rejection.INVALID_SIGNATURE,
                    SIGNATURE + " does not match the body under any configured secret");
        }
        // The webhook id is the same on every retry of one delivery, whereas one event id is shared by the
        // deliveries of every subscription it triggers: keying on it first could drop a distinct delivery.
        String id = nonEmpty(delivery.header("X-Shopify-Webhook-Id"));
        if (id == null) {
            id = nonEmpty(delivery.header("X-Shopify-Event-Id"));
        }
        if (id == null) {
            throw new RejectedDelivery(Rejection.MISSING_EVENT_ID,
                    "neither the X-Shopify-Webhook-Id nor the X-Shopify-Event-Id header is present");
        }
        String type = delivery.header("X-Shopify-Topic");
        return VerifiedDelivery.event(id, type == null ? "" : type, delivery.retain(RETAINED, SIGNATURES));
    }

    private static String nonEmpty(String value) {
        return value == null || value.isEmpty() ? null : value;
    }

    private static byte[] base64OrNull(String text) {
        try {
            return Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
