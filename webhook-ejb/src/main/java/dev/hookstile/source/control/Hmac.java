package dev.hookstile.source.control;

import dev.hookstile.source.Delivery;
import dev.hookstile.source.RejectedDelivery;
import dev.hookstile.source.Rejection;
import dev.hookstile.source.Source;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * What every provider's signature check shares: the header that must be there, a signature that must decode, and
 * an HMAC that must match under one of the configured secrets (all of them tried, compared in constant time).
 */
final class Hmac {

    static final String SHA256 = "HmacSHA256";
    private static final HexFormat HEX = HexFormat.of();

    private Hmac() {
    }

    /** The signature header's value; a delivery without it is refused {@code missing-signature}. */
    static String requiredHeader(Delivery delivery, String name) throws RejectedDelivery {
        String value = delivery.header(name);
        if (value == null) {
            throw new RejectedDelivery(Rejection.MISSING_SIGNATURE, "the " + name + " header is missing");
        }
        return value;
    }

    /** A decoded signature; {@code null} (it did not decode) is refused {@code malformed-signature}. */
    static byte[] wellFormed(byte[] decoded, String header, String expected) throws RejectedDelivery {
        if (decoded == null) {
            throw new RejectedDelivery(Rejection.MALFORMED_SIGNATURE, header + " must be " + expected);
        }
        return decoded;
    }

    /**
     * Whether the signature is the HMAC of the message (its parts in order) under any of the source's secrets. Every
     * secret is tried, so the time taken does not tell which one matched (or how many there are before it).
     */
    static boolean matches(Source source, String algorithm, byte[] signature, byte[]... message) {
        boolean valid = false;
        for (byte[] secret : source.secrets()) {
            valid |= equal(compute(algorithm, secret, message), signature);
        }
        return valid;
    }

    static byte[] compute(String algorithm, byte[] key, byte[]... parts) {
        try {
            Mac mac = Mac.getInstance(algorithm);
            mac.init(new SecretKeySpec(key, algorithm));
            for (byte[] part : parts) {
                mac.update(part);
            }
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(algorithm + " is not available in this JVM", e);
        }
    }

    /** Constant-time: the time taken does not depend on where the arrays differ. */
    static boolean equal(byte[] expected, byte[] actual) {
        return actual != null && MessageDigest.isEqual(expected, actual);
    }

    /** Decodes hex, or returns {@code null} when the text is not valid hex of the expected length. */
    static byte[] hexOrNull(String text, int bytes) {
        if (text == null || text.length() != bytes * 2) {
            return null;
        }
        try {
            return HEX.parseHex(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    static String hex(byte[] bytes) {
        return HEX.formatHex(bytes);
    }
}
