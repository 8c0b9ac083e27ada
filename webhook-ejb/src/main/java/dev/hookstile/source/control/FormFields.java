package dev.hookstile.source.control;

import dev.hookstile.source.RejectedDelivery;
import dev.hookstile.source.Rejection;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes an {@code application/x-www-form-urlencoded} body into its fields, in body order and with repeated names
 * kept, for providers that sign the decoded fields rather than the bytes. Strict where leniency would change what is
 * verified: a {@code %} not followed by two hexadecimal digits, or bytes that are not UTF-8, refuse the body instead
 * of being passed through or replaced.
 */
final class FormFields {

    /**
     * The most fields a form body may have. Twilio's callbacks carry a few dozen; a body of a megabyte could carry
     * half a million, all decoded and sorted before the signature can be checked, by a sender who needs no secret.
     */
    static final int MAX_FIELDS = 1_000;

    /** One {@code name=value} pair, both decoded; a pair without {@code =} has the value {@code ""}. */
    record Field(String name, String value) {
    }

    private FormFields() {
    }

    /**
     * @throws RejectedDelivery {@link Rejection#INVALID_PAYLOAD} when the body is not valid form encoding,
     *                          {@link Rejection#TOO_MANY_FIELDS} beyond {@value #MAX_FIELDS} fields (counted before
     *                          anything is decoded)
     */
    static List<Field> parse(byte[] body) throws RejectedDelivery {
        int separators = 0;
        for (byte b : body) {
            if (b == '&' && ++separators >= MAX_FIELDS) {
                // Counts empty pairs too: a body that needs that many separators is refused either way.
                throw new RejectedDelivery(Rejection.TOO_MANY_FIELDS,
                        "the form body has more than " + MAX_FIELDS + " fields");
            }
        }
        var fields = new ArrayList<Field>();
        int start = 0;
        while (start <= body.length) {
            int end = indexOf(body, (byte) '&', start, body.length);
            // Empty pairs (a trailing or doubled '&') carry nothing; every form parser skips them.
            if (end > start) {
                int eq = indexOf(body, (byte) '=', start, end);
                fields.add(eq == end
                        ? new Field(decode(body, start, end), "")
                        : new Field(decode(body, start, eq), decode(body, eq + 1, end)));
            }
            start = end + 1;
        }
        return fields;
    }

    private static int indexOf(byte[] bytes, byte wanted, int from, int to) {
        for (int i = from; i < to; i++) {
            if (bytes[i] == wanted) {
                return i;
            }
        }
        return to;
    }

    private static String decode(byte[] body, int from, int to) throws RejectedDelivery {
        byte[] decoded = new byte[to - from];
        int length = 0;
        for (int i = from; i < to; i++) {
            byte b = body[i];
            if (b == '+') {
                b = ' ';
            } else if (b == '%') {
                int high = i + 2 < to ? hexValue(body[i + 1]) : -1;
                int low = high < 0 ? -1 : hexValue(body[i + 2]);
                if (low < 0) {
                    throw new RejectedDelivery(Rejection.INVALID_PAYLOAD,
                            "the form body has a '%' that is not followed by two hexadecimal digits");
                }
                b = (byte) (high << 4 | low);
                i += 2;
            }
            decoded[length++] = b;
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(decoded, 0, length))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new RejectedDelivery(Rejection.INVALID_PAYLOAD, "the form body is not valid UTF-8");
        }
    }

    private static int hexValue(byte b) {
        if (b >= '0' && b <= '9') {
            return b - '0';
        }
        if (b >= 'a' && b <= 'f') {
            return b - 'a' + 10;
        }
        if (b >= 'A' && b <= 'F') {
            return b - 'A' + 10;
        }
        return -1;
    }
}
