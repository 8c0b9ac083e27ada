package dev.hookstile.source.control;

import dev.hookstile.source.RejectedDelivery;
import dev.hookstile.source.Rejection;
import dev.hookstile.source.control.FormFields.Field;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class FormFieldsTest {

    private static List<Field> parse(String body) throws RejectedDelivery {
        return FormFields.parse(body.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static Rejection rejection(String body) {
        return assertThrows(RejectedDelivery.class, () -> parse(body)).reason();
    }

    @Test
    void decodesPairsInBodyOrder() throws RejectedDelivery {
        assertEquals(List.of(new Field("To", "x"), new Field("CallSid", "CA1")), parse("To=x&CallSid=CA1"));
    }

    @Test
    void decodesPlusAsSpace() throws RejectedDelivery {
        assertEquals(List.of(new Field("Body", "hello world ")), parse("Body=hello+world+"));
    }

    @Test
    void decodesPercentEscapesInNamesAndValues() throws RejectedDelivery {
        assertEquals(List.of(new Field("a b", "+1&2=3%")), parse("a%20b=%2B1%262%3d3%25"));
    }

    @Test
    void decodesPercentEscapedUtf8() throws RejectedDelivery {
        assertEquals(List.of(new Field("Body", "Caf\u00e9 \u20ac5 \uD83D\uDE00")),
                parse("Body=Caf%C3%A9+%E2%82%AC5+%F0%9F%98%80"));
    }

    @Test
    void decodesRawUtf8Bytes() throws RejectedDelivery {
        assertEquals(List.of(new Field("Body", "Caf\u00e9")),
                FormFields.parse("Body=Caf\u00e9".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void keepsAPlusThatWasEscaped() throws RejectedDelivery {
        assertEquals(List.of(new Field("From", "+12349013030")), parse("From=%2B12349013030"));
    }

    @Test
    void keepsEmptyValues() throws RejectedDelivery {
        assertEquals(List.of(new Field("a", ""), new Field("b", ""), new Field("", "c")), parse("a=&b&=c"));
    }

    @Test
    void keepsTheRestOfTheValueAfterASecondEqualsSign() throws RejectedDelivery {
        assertEquals(List.of(new Field("a", "b=c")), parse("a=b=c"));
    }

    @Test
    void keepsRepeatedNamesInBodyOrder() throws RejectedDelivery {
        assertEquals(List.of(new Field("a", "2"), new Field("b", "x"), new Field("a", "1"), new Field("a", "2")),
                parse("a=2&b=x&a=1&a=2"));
    }

    @Test
    void skipsEmptyPairs() throws RejectedDelivery {
        assertEquals(List.of(new Field("a", "1"), new Field("b", "2")), parse("&a=1&&b=2&"));
    }

    @Test
    void decodesAnEmptyBodyToNoFields() throws RejectedDelivery {
        assertEquals(List.of(), parse(""));
    }

    @Test
    void rejectsAPercentAtTheEnd() {
        assertEquals(Rejection.INVALID_PAYLOAD, rejection("a=1%"));
    }

    @Test
    void rejectsAPercentWithOneDigit() {
        assertEquals(Rejection.INVALID_PAYLOAD, rejection("a=%4&b=1"));
    }

    @Test
    void rejectsAPercentWithNonHexDigits() {
        assertEquals(Rejection.INVALID_PAYLOAD, rejection("a=%zz"));
    }

    @Test
    void rejectsAMalformedEscapeInAName() {
        assertEquals(Rejection.INVALID_PAYLOAD, rejection("a%g1=1"));
    }

    @Test
    void doesNotLetAnEscapeReachIntoTheNextPair() {
        assertEquals(Rejection.INVALID_PAYLOAD, rejection("a=%4&1"));
    }

    @Test
    void rejectsEscapesThatAreNotUtf8() {
        assertEquals(Rejection.INVALID_PAYLOAD, rejection("Body=Caf%E9"));
    }

    @Test
    void rejectsRawBytesThatAreNotUtf8() {
        assertEquals(Rejection.INVALID_PAYLOAD, assertThrows(RejectedDelivery.class,
                () -> FormFields.parse(new byte[] {'a', '=', (byte) 0xff})).reason());
    }

    private static String fields(int count) {
        var body = new StringBuilder();
        for (int i = 0; i < count; i++) {
            body.append(i == 0 ? "" : "&").append("f").append(i).append("=v");
        }
        return body.toString();
    }

    @Test
    void acceptsAsManyFieldsAsTheLimit() throws RejectedDelivery {
        assertEquals(FormFields.MAX_FIELDS, parse(fields(FormFields.MAX_FIELDS)).size());
    }

    @Test
    void refusesMoreFieldsThanTheLimitBeforeDecodingAny() {
        assertEquals(Rejection.TOO_MANY_FIELDS, rejection(fields(FormFields.MAX_FIELDS + 1)));
        // Not even a malformed escape is reached: the count comes first.
        assertEquals(Rejection.TOO_MANY_FIELDS, rejection("a=%zz" + "&".repeat(FormFields.MAX_FIELDS)));
    }
}
