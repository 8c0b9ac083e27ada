package dev.hookstile.provider.control;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;

/** HMAC computation and the constant-time comparison every provider needs. */
final class Hmac {

    static final String SHA256 = "HmacSHA256";
    private static final HexFormat HEX = HexFormat.of();

    private Hmac() {
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
