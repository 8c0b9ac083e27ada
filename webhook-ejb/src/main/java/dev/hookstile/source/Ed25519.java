package dev.hookstile.source;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;

/**
 * Standard Webhooks' asymmetric keys and {@code v1a} signatures: Ed25519 over {@code <id>.<timestamp>.<body>}, with
 * the JDK's own implementation. A public key is {@code whpk_} and the base64 of its 32 bytes; a signing key
 * {@code whsk_} and the base64 of its 32-byte seed (64 bytes, the seed and the public key as libsodium keeps them, are
 * taken too); the prefixes may be left out, as the specification's libraries allow.
 */
public final class Ed25519 {

    public static final String PUBLIC_PREFIX = "whpk_";
    public static final String SIGNING_PREFIX = "whsk_";
    private static final int KEY_BYTES = 32;
    private static final int SIGNATURE_BYTES = 64;
    // The DER around a raw key: what X.509's SubjectPublicKeyInfo and PKCS #8 put before it for Ed25519 (RFC 8410).
    private static final byte[] X509_PREFIX = HexFormat.of().parseHex("302a300506032b6570032100");
    private static final byte[] PKCS8_PREFIX = HexFormat.of().parseHex("302e020100300506032b657004220420");

    private Ed25519() {
    }

    /**
     * @throws IllegalArgumentException saying what is wrong with it, never quoting it, to follow the setting's name
     */
    public static PublicKey publicKey(String text) {
        byte[] raw = decode(text, PUBLIC_PREFIX, "a public key");
        if (raw.length != KEY_BYTES) {
            throw new IllegalArgumentException("has " + raw.length + " key bytes: an Ed25519 public key has "
                    + KEY_BYTES + " (whpk_ followed by their base64)");
        }
        try {
            return KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(concat(X509_PREFIX, raw)));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("is not an Ed25519 public key");
        }
    }

    /**
     * @throws IllegalArgumentException saying what is wrong with it, never quoting it, to follow the setting's name
     */
    public static PrivateKey signingKey(String text) {
        byte[] raw = decode(text, SIGNING_PREFIX, "a signing key");
        if (raw.length != KEY_BYTES && raw.length != 2 * KEY_BYTES) {
            throw new IllegalArgumentException("has " + raw.length + " key bytes: an Ed25519 signing key has "
                    + KEY_BYTES + " (whsk_ followed by the base64 of its seed)");
        }
        byte[] seed = Arrays.copyOf(raw, KEY_BYTES);
        try {
            return KeyFactory.getInstance("Ed25519").generatePrivate(new PKCS8EncodedKeySpec(concat(PKCS8_PREFIX,
                    seed)));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("is not an Ed25519 signing key");
        }
    }

    /** The {@code v1a} signature's bytes of {@code prefix} followed by {@code body}. */
    public static byte[] sign(PrivateKey key, byte[] prefix, byte[] body) {
        try {
            Signature signer = Signature.getInstance("Ed25519");
            signer.initSign(key);
            signer.update(prefix);
            signer.update(body);
            return signer.sign();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 is part of every Java platform since 15", e);
        }
    }

    /** Whether the signature is this key's of {@code prefix} followed by {@code body}; never throws on bad bytes. */
    public static boolean verify(PublicKey key, byte[] prefix, byte[] body, byte[] signature) {
        if (signature == null || signature.length != SIGNATURE_BYTES) {
            return false;
        }
        try {
            Signature verifier = Signature.getInstance("Ed25519");
            verifier.initVerify(key);
            verifier.update(prefix);
            verifier.update(body);
            return verifier.verify(signature);
        } catch (GeneralSecurityException | RuntimeException e) {
            // A signature that is no point of the curve: no match, never the request's failure.
            return false;
        }
    }

    private static byte[] decode(String text, String prefix, String what) {
        String trimmed = text.trim();
        try {
            return Base64.getDecoder().decode(trimmed.startsWith(prefix) ? trimmed.substring(prefix.length())
                    : trimmed);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("is not " + what + ": it must be " + prefix + " followed by base64");
        }
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }
}
