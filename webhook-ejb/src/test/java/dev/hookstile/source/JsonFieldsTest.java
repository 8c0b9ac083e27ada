package dev.hookstile.source;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JsonFieldsTest {

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static Rejection rejection(String body) {
        return assertThrows(RejectedDelivery.class,
                () -> JsonFields.topLevel(utf8(body), Set.of("id", "type"))).reason();
    }

    @Test
    void extractsTopLevelStrings() throws RejectedDelivery {
        Map<String, String> fields = JsonFields.topLevel(utf8("{\"id\":\"evt_1\",\"type\":\"invoice.paid\"}"),
                Set.of("id", "type"));

        assertEquals(Map.of("id", "evt_1", "type", "invoice.paid"), fields);
    }

    @Test
    void extractsTopLevelNumbersAsText() throws RejectedDelivery {
        Map<String, String> fields = JsonFields.topLevel(utf8("{\"id\": 12345678901234567890, \"n\": 1.5e3}"),
                Set.of("id", "n"));

        assertEquals("12345678901234567890", fields.get("id"));
        assertEquals("1.5e3", fields.get("n"));
    }

    @Test
    void extractsOnlyTheWantedFields() throws RejectedDelivery {
        Map<String, String> fields = JsonFields.topLevel(utf8("{\"id\":\"a\",\"other\":\"b\"}"), Set.of("id"));

        assertEquals(Map.of("id", "a"), fields);
    }

    @Test
    void decodesEscapesAndNonAsciiText() throws RejectedDelivery {
        Map<String, String> fields = JsonFields.topLevel(utf8("{\"type\":\"caf\\u00e9.\\\"x\\\" \u20ac\"}"),
                Set.of("type"));

        assertEquals("caf\u00e9.\"x\" \u20ac", fields.get("type"));
    }

    @Test
    void ignoresNestedFieldWithTheSameNameBeforeTheTopLevelOne() throws RejectedDelivery {
        Map<String, String> fields = JsonFields.topLevel(utf8("{\"data\":{\"id\":\"nested\"},\"id\":\"top\"}"),
                Set.of("id"));

        assertEquals("top", fields.get("id"));
    }

    @Test
    void ignoresFieldsInsideArrays() throws RejectedDelivery {
        Map<String, String> fields = JsonFields.topLevel(
                utf8("{\"items\":[{\"id\":\"in_array\"},[{\"id\":\"deeper\"}]],\"id\":\"top\"}"), Set.of("id"));

        assertEquals("top", fields.get("id"));
    }

    @Test
    void omitsFieldsThatAreAbsent() throws RejectedDelivery {
        Map<String, String> fields = JsonFields.topLevel(utf8("{\"data\":{\"id\":\"nested\"}}"), Set.of("id"));

        assertTrue(fields.isEmpty());
    }

    @Test
    void omitsFieldsThatAreNotStringsOrNumbers() throws RejectedDelivery {
        Map<String, String> fields = JsonFields.topLevel(
                utf8("{\"id\":null,\"type\":true,\"x\":false,\"y\":{},\"z\":[]}"), Set.of("id", "type"));

        assertTrue(fields.isEmpty());
    }

    @Test
    void acceptsAnEmptyObject() throws RejectedDelivery {
        assertTrue(JsonFields.topLevel(utf8(" { } "), Set.of("id")).isEmpty());
    }

    @Test
    void rejectsTextThatIsNotJson() {
        assertEquals(Rejection.INVALID_PAYLOAD, rejection("id=evt_1"));
    }

    @Test
    void rejectsObjectWithSyntaxError() {
        assertEquals(Rejection.INVALID_PAYLOAD, rejection("{\"id\" \"evt_1\"}"));
    }

    @Test
    void rejectsObjectWithTrailingComma() {
        assertEquals(Rejection.INVALID_PAYLOAD, rejection("{\"id\":\"evt_1\",}"));
    }

    @Test
    void rejectsTruncatedJson() {
        assertEquals(Rejection.INVALID_PAYLOAD, rejection("{\"id\":\"evt_1\",\"type\":\"inv"));
    }

    @Test
    void rejectsJsonTruncatedAfterACompleteField() {
        assertEquals(Rejection.INVALID_PAYLOAD, rejection("{\"id\":\"evt_1\""));
    }

    @Test
    void rejectsJsonTruncatedInsideANestedObject() {
        assertEquals(Rejection.INVALID_PAYLOAD, rejection("{\"id\":\"evt_1\",\"data\":{\"object\":{"));
    }

    @Test
    void rejectsEmptyBody() {
        assertEquals(Rejection.INVALID_PAYLOAD, rejection(""));
    }

    @Test
    void rejectsTopLevelArray() {
        assertEquals(Rejection.INVALID_PAYLOAD, rejection("[{\"id\":\"evt_1\"}]"));
    }

    @Test
    void rejectsTopLevelString() {
        assertEquals(Rejection.INVALID_PAYLOAD, rejection("\"evt_1\""));
    }

    @Test
    void rejectsTopLevelNumber() {
        assertEquals(Rejection.INVALID_PAYLOAD, rejection("42"));
    }

    @Test
    void rejectsInvalidUtf8() {
        byte[] body = {'{', '"', 'i', 'd', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'};

        assertEquals(Rejection.INVALID_PAYLOAD, assertThrows(RejectedDelivery.class,
                () -> JsonFields.topLevel(body, Set.of("id"))).reason());
    }

    @Test
    void rejectsTenThousandOpeningBracketsAsInvalidPayload() {
        assertEquals(Rejection.INVALID_PAYLOAD, rejection("[".repeat(10_000)));
    }

    @Test
    void rejectsTenThousandOpeningBracketsInsideAnObjectAsInvalidPayload() {
        assertEquals(Rejection.INVALID_PAYLOAD, rejection("{\"id\":\"evt_1\",\"data\":" + "[".repeat(10_000)));
    }

    @Test
    void rejectsTenThousandOpeningBracesInsideAnObjectAsInvalidPayload() {
        assertEquals(Rejection.INVALID_PAYLOAD, rejection("{\"id\":\"evt_1\",\"data\":" + "{\"a\":".repeat(10_000)));
    }

    @Test
    void rejectsWellFormedJsonNestedTenThousandDeep() {
        String body = "{\"data\":" + "[".repeat(10_000) + "]".repeat(10_000) + ",\"id\":\"evt_deep\"}";

        assertEquals(Rejection.INVALID_PAYLOAD, rejection(body));
    }

    @Test
    void acceptsNestingUpToTheLimit() throws RejectedDelivery {
        int nested = JsonFields.MAX_DEPTH - 1;
        String body = "{\"data\":" + "[".repeat(nested) + "]".repeat(nested) + ",\"id\":\"evt_deep\"}";

        assertEquals("evt_deep", JsonFields.topLevel(utf8(body), Set.of("id")).get("id"));
    }

    @Test
    void ignoresKeysOfNestedObjectsEvenAfterTheyClose() throws RejectedDelivery {
        Map<String, String> fields = JsonFields.topLevel(utf8("{\"a\":{\"b\":{}},\"c\":\"x\",\"id\":\"top\"}"),
                Set.of("id", "b", "c"));

        assertEquals(Map.of("id", "top", "c", "x"), fields);
    }

    @Test
    void readsValuesAtJsonPointersIntoObjectsAndArrays() throws RejectedDelivery {
        String body = "{\"event\":{\"type\":\"app_mention\",\"n\":3},\"entry\":[{\"id\":\"e0\"},{\"id\":\"e1\"}],"
                + "\"a/b\":{\"c~d\":\"escaped\"},\"flags\":[true,\"second\"]}";

        Map<String, String> values = JsonFields.values(utf8(body),
                Set.of("/event/type", "/event/n", "/entry/1/id", "/a~1b/c~0d", "/flags/1", "/entry/2/id", "/event"));

        assertEquals(Map.of("/event/type", "app_mention", "/event/n", "3", "/entry/1/id", "e1",
                "/a~1b/c~0d", "escaped", "/flags/1", "second"), values);
    }

    @Test
    void pointerValuesInsideTruncatedJsonAreRefused() {
        assertEquals(Rejection.INVALID_PAYLOAD, assertThrows(RejectedDelivery.class,
                () -> JsonFields.values(utf8("{\"event\":{\"type\":\"x\""), Set.of("/event/type"))).reason());
    }
}
