package dev.hookstile.test;

import java.util.Locale;
import java.util.Objects;

/**
 * How a sender of the generic {@code hmac} provider signs: the HMAC of the raw body with the source's secret, in a
 * header of its choice, as Hookstile's {@code HOOKSTILE_SOURCES_<NAME>_SIGNATURE_HEADER}, {@code _ALGORITHM},
 * {@code _ENCODING} and {@code _SIGNATURE_PREFIX} describe it.
 *
 * @param signatureHeader the header carrying the signature, e.g. {@code X-Signature}
 * @param algorithm       {@code sha256} (the default), {@code sha1} or {@code sha512}
 * @param encoding        {@code hex} (the default) or {@code base64}
 * @param prefix          written before the signature (e.g. {@code sha256=}), or {@code ""}
 */
public record HmacScheme(String signatureHeader, String algorithm, String encoding, String prefix) {

    public HmacScheme {
        Objects.requireNonNull(signatureHeader, "signatureHeader");
        algorithm = algorithm.toLowerCase(Locale.ROOT);
        encoding = encoding.toLowerCase(Locale.ROOT);
        prefix = prefix == null ? "" : prefix;
        if (!algorithm.equals("sha1") && !algorithm.equals("sha256") && !algorithm.equals("sha512")) {
            throw new IllegalArgumentException("algorithm: sha1, sha256 or sha512, not " + algorithm);
        }
        if (!encoding.equals("hex") && !encoding.equals("base64")) {
            throw new IllegalArgumentException("encoding: hex or base64, not " + encoding);
        }
    }

    /** Hookstile's defaults: HMAC-SHA256 in hex, no prefix, in this header. */
    public static HmacScheme in(String signatureHeader) {
        return new HmacScheme(signatureHeader, "sha256", "hex", "");
    }

    public HmacScheme algorithm(String name) {
        return new HmacScheme(signatureHeader, name, encoding, prefix);
    }

    public HmacScheme base64() {
        return new HmacScheme(signatureHeader, algorithm, "base64", prefix);
    }

    public HmacScheme prefix(String text) {
        return new HmacScheme(signatureHeader, algorithm, encoding, text);
    }

    /** The JCA name of the MAC. */
    String macName() {
        return switch (algorithm) {
            case "sha1" -> "HmacSHA1";
            case "sha512" -> "HmacSHA512";
            default -> "HmacSHA256";
        };
    }
}
