package dev.hookstile.test;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.spec.NamedParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Deliveries signed exactly as each provider signs them, with its headers and its id and timestamp conventions, for
 * a Hookstile source configured with the same secret:
 *
 * <pre>{@code
 * SignedDelivery paid = Deliveries.stripe("billing", "whsec_...", invoicePaidJson);
 * HttpResponse<String> answer = http.send(paid.request(hookstile).build(), BodyHandlers.ofString());
 * }</pre>
 *
 * Each signature is checked in this module's tests against the provider's published example (GitHub, Slack,
 * Twilio, the Standard Webhooks specification), against the RFC 4231 and RFC 2202 HMAC vectors for those that sign
 * the plain body's HMAC (Shopify, Meta, {@code hmac}), and against the official SDK for Stripe. Timestamps default to now, which is what a receiver's replay window expects; the
 * overloads with an {@link Instant} sign another time (a delivery outside the window).
 */
public final class Deliveries {

    private Deliveries() {
    }

    /**
     * GitHub: {@code X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>} (and the legacy SHA-1
     * {@code X-Hub-Signature}), the id in {@code X-GitHub-Delivery}, the type in {@code X-GitHub-Event}.
     */
    public static SignedDelivery github(String source, String secret, String deliveryId, String event, String body) {
        byte[] bytes = utf8(body);
        var headers = new LinkedHashMap<String, String>();
        headers.put("Content-Type", "application/json");
        headers.put("User-Agent", "GitHub-Hookshot/hookstile-test");
        headers.put("X-GitHub-Delivery", deliveryId);
        headers.put("X-GitHub-Event", event);
        headers.put("X-GitHub-Hook-ID", "1");
        headers.put("X-Hub-Signature", "sha1=" + hex(hmac("HmacSHA1", utf8(secret), bytes)));
        headers.put("X-Hub-Signature-256", "sha256=" + hex(hmac("HmacSHA256", utf8(secret), bytes)));
        return new SignedDelivery(source, headers, bytes);
    }

    /**
     * Stripe, signed now: {@code Stripe-Signature: t=<seconds>,v1=<hex HMAC-SHA256 of "t.body">} keyed with the
     * endpoint secret as given ({@code whsec_...}). The event's id and type are the body's {@code id} and
     * {@code type}.
     */
    public static SignedDelivery stripe(String source, String secret, String body) {
        return stripe(source, secret, body, Instant.now());
    }

    public static SignedDelivery stripe(String source, String secret, String body, Instant signedAt) {
        long t = signedAt.getEpochSecond();
        var headers = new LinkedHashMap<String, String>();
        headers.put("Content-Type", "application/json; charset=utf-8");
        headers.put("User-Agent", "Stripe/1.0 (+https://stripe.com/docs/webhooks)");
        String v1 = hex(hmac("HmacSHA256", utf8(secret), utf8(t + "." + body)));
        headers.put("Stripe-Signature", "t=" + t + ",v1=" + v1);
        return new SignedDelivery(source, headers, utf8(body));
    }

    /**
     * Standard Webhooks, signed now: {@code webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">},
     * keyed with the base64 part of the {@code whsec_} secret.
     */
    public static SignedDelivery standardWebhooks(String source, String secret, String id, String body) {
        return standardWebhooks(source, secret, id, body, Instant.now());
    }

    public static SignedDelivery standardWebhooks(String source, String secret, String id, String body,
                                                  Instant signedAt) {
        return standard(source, "webhook-", secret, id, body, signedAt);
    }

    /**
     * Standard Webhooks' asymmetric form, signed now: {@code webhook-signature: v1a,<base64 Ed25519 of
     * "id.timestamp.body">} with a {@code whsk_} signing key; the source holds its public key ({@link #publicKeyOf},
     * Hookstile's {@code _PUBLIC_KEYS}).
     */
    public static SignedDelivery standardWebhooksV1a(String source, String signingKey, String id, String body) {
        return standardWebhooksV1a(source, signingKey, id, body, Instant.now());
    }

    public static SignedDelivery standardWebhooksV1a(String source, String signingKey, String id, String body,
                                                     Instant signedAt) {
        String timestamp = String.valueOf(signedAt.getEpochSecond());
        byte[] signature = ed25519(seed(signingKey), utf8(id + "." + timestamp + "." + body));
        return standardHeaders(source, "webhook-", id, timestamp, "v1a," + base64(signature), body);
    }

    /** The {@code whpk_} public key of a {@code whsk_} signing key: what a source receiving its deliveries holds. */
    public static String publicKeyOf(String signingKey) {
        byte[] seed = seed(signingKey);
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("Ed25519");
            // The generator draws the private key's 32 bytes from its random source: given the seed, it derives the
            // same key pair, the JDK's only way to a public key from a private one.
            generator.initialize(NamedParameterSpec.ED25519, new SecureRandom() {
                @Override
                public void nextBytes(byte[] bytes) {
                    System.arraycopy(seed, 0, bytes, 0, bytes.length);
                }
            });
            byte[] encoded = generator.generateKeyPair().getPublic().getEncoded();
            return "whpk_" + base64(Arrays.copyOfRange(encoded, encoded.length - 32, encoded.length));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 is not available", e);
        }
    }

    /** Svix: Standard Webhooks on {@code svix-id}, {@code svix-timestamp} and {@code svix-signature}. */
    public static SignedDelivery svix(String source, String secret, String id, String body) {
        return svix(source, secret, id, body, Instant.now());
    }

    public static SignedDelivery svix(String source, String secret, String id, String body, Instant signedAt) {
        return standard(source, "svix-", secret, id, body, signedAt);
    }

    /**
     * Shopify: {@code X-Shopify-Hmac-Sha256: <base64 HMAC-SHA256 of the body>} keyed with the app's client secret,
     * the id in {@code X-Shopify-Webhook-Id}, the type in {@code X-Shopify-Topic}.
     */
    public static SignedDelivery shopify(String source, String secret, String webhookId, String topic, String body) {
        byte[] bytes = utf8(body);
        var headers = new LinkedHashMap<String, String>();
        headers.put("Content-Type", "application/json");
        headers.put("X-Shopify-Topic", topic);
        headers.put("X-Shopify-Hmac-Sha256", base64(hmac("HmacSHA256", utf8(secret), bytes)));
        headers.put("X-Shopify-Shop-Domain", "hookstile-test.myshopify.com");
        headers.put("X-Shopify-API-Version", "2025-01");
        headers.put("X-Shopify-Webhook-Id", webhookId);
        headers.put("X-Shopify-Triggered-At", Instant.now().toString());
        return new SignedDelivery(source, headers, bytes);
    }

    /**
     * Slack's Events API, signed now: {@code X-Slack-Signature: v0=<hex HMAC-SHA256 of "v0:timestamp:body">} with
     * the app's signing secret. The event's id is the body's {@code event_id}.
     */
    public static SignedDelivery slack(String source, String signingSecret, String body) {
        return slack(source, signingSecret, body, Instant.now());
    }

    public static SignedDelivery slack(String source, String signingSecret, String body, Instant signedAt) {
        String timestamp = String.valueOf(signedAt.getEpochSecond());
        var headers = new LinkedHashMap<String, String>();
        headers.put("Content-Type", "application/json");
        headers.put("X-Slack-Request-Timestamp", timestamp);
        headers.put("X-Slack-Signature", "v0=" + hex(hmac("HmacSHA256", utf8(signingSecret),
                utf8("v0:" + timestamp + ":" + body))));
        return new SignedDelivery(source, headers, utf8(body));
    }

    /**
     * Twilio: the form fields posted form-encoded, and {@code X-Twilio-Signature: <base64 HMAC-SHA1>} of the URL
     * Twilio was given followed by every field's name and value, sorted by name, keyed with the account's auth
     * token. The URL is the source's public URL (Hookstile's {@code _PUBLIC_URL} setting behind a proxy), not
     * necessarily the one the request is sent to.
     */
    public static SignedDelivery twilio(String source, String authToken, String publicUrl, Map<String, String> form) {
        SortedMap<String, String> sorted = new TreeMap<>(form);
        var signed = new StringBuilder(publicUrl);
        var body = new StringBuilder();
        sorted.forEach((name, value) -> {
            signed.append(name).append(value);
            body.append(body.isEmpty() ? "" : "&").append(URLEncoder.encode(name, StandardCharsets.UTF_8))
                    .append('=').append(URLEncoder.encode(value, StandardCharsets.UTF_8));
        });
        var headers = new LinkedHashMap<String, String>();
        headers.put("Content-Type", "application/x-www-form-urlencoded");
        headers.put("User-Agent", "TwilioProxy/1.1");
        headers.put("X-Twilio-Signature", base64(hmac("HmacSHA1", utf8(authToken), utf8(signed.toString()))));
        return new SignedDelivery(source, headers, utf8(body.toString()));
    }

    /**
     * Meta (WhatsApp Cloud API, Messenger, Instagram): {@code X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the
     * body>} keyed with the app secret.
     */
    public static SignedDelivery meta(String source, String appSecret, String body) {
        byte[] bytes = utf8(body);
        var headers = new LinkedHashMap<String, String>();
        headers.put("Content-Type", "application/json");
        headers.put("User-Agent", "facebookexternalua");
        headers.put("X-Hub-Signature-256", "sha256=" + hex(hmac("HmacSHA256", utf8(appSecret), bytes)));
        return new SignedDelivery(source, headers, bytes);
    }

    /**
     * A sender of the generic {@code hmac} provider: the HMAC of the body as {@code scheme} says, plus whatever
     * headers carry its event id and type ({@code Map.of("X-Event-Id", "e-1")}).
     */
    public static SignedDelivery hmac(String source, HmacScheme scheme, String secret, Map<String, String> headers,
                                      String body) {
        byte[] bytes = utf8(body);
        byte[] mac = hmac(scheme.macName(), utf8(secret), bytes);
        var all = new LinkedHashMap<String, String>();
        all.put("Content-Type", "application/json");
        all.putAll(headers);
        String signature = scheme.encoding().equals("base64") ? base64(mac) : hex(mac);
        all.put(scheme.signatureHeader(), scheme.prefix() + signature);
        return new SignedDelivery(source, all, bytes);
    }

    private static SignedDelivery standard(String source, String prefix, String secret, String id, String body,
                                           Instant signedAt) {
        String timestamp = String.valueOf(signedAt.getEpochSecond());
        byte[] key = Base64.getDecoder().decode(secret.startsWith("whsec_") ? secret.substring(6) : secret);
        byte[] signature = hmac("HmacSHA256", key, utf8(id + "." + timestamp + "." + body));
        return standardHeaders(source, prefix, id, timestamp, "v1," + base64(signature), body);
    }

    private static SignedDelivery standardHeaders(String source, String prefix, String id, String timestamp,
                                                  String signature, String body) {
        var headers = new LinkedHashMap<String, String>();
        headers.put("Content-Type", "application/json");
        headers.put(prefix + "id", id);
        headers.put(prefix + "timestamp", timestamp);
        headers.put(prefix + "signature", signature);
        return new SignedDelivery(source, headers, utf8(body));
    }

    /** A {@code whsk_} key's 32-byte seed: of 64 bytes (the seed and the public key, as libsodium keeps them) the first 32. */
    private static byte[] seed(String signingKey) {
        byte[] raw = Base64.getDecoder().decode(signingKey.startsWith("whsk_") ? signingKey.substring(5) : signingKey);
        if (raw.length != 32 && raw.length != 64) {
            throw new IllegalArgumentException("a whsk_ signing key holds 32 bytes (its seed), not " + raw.length);
        }
        return Arrays.copyOf(raw, 32);
    }

    private static byte[] ed25519(byte[] seed, byte[] message) {
        try {
            // PKCS #8 around the raw seed (RFC 8410): the form the JDK's key factory reads.
            byte[] pkcs8 = HexFormat.of().parseHex("302e020100300506032b657004220420" + HexFormat.of().formatHex(seed));
            Signature signer = Signature.getInstance("Ed25519");
            signer.initSign(KeyFactory.getInstance("Ed25519").generatePrivate(new PKCS8EncodedKeySpec(pkcs8)));
            signer.update(message);
            return signer.sign();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 is not available", e);
        }
    }

    private static byte[] hmac(String algorithm, byte[] key, byte[] message) {
        try {
            Mac mac = Mac.getInstance(algorithm);
            mac.init(new SecretKeySpec(key, algorithm));
            return mac.doFinal(message);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(algorithm + " is not available", e);
        }
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    private static String base64(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes);
    }
}
