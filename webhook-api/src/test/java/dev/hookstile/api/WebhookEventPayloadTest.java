package dev.hookstile.api;

import jakarta.json.bind.annotation.JsonbProperty;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WebhookEventPayloadTest {

    public record Invoice(String id, @JsonbProperty("amount_paid") long amountPaid, String currency,
                          List<String> lines) {
    }

    public record Paid(String type, Data data) {
        public record Data(Invoice object) {
        }
    }

    private static WebhookEvent eventWith(String body) {
        return new WebhookEvent("pay", "stripe", "evt_1", "invoice.paid", Instant.EPOCH, 1, Map.of(),
                body.getBytes(StandardCharsets.UTF_8));
    }

    private static final String PAID = """
            {"id":"evt_1","type":"invoice.paid","data":{"object":{"id":"in_42","amount_paid":1999,
             "currency":"eur","lines":["seat","support"],"unknown":{"nested":true}}}}""";

    @Test
    void jsonGivesTheFieldsOfAnObjectPayload() {
        var json = eventWith(PAID).json();

        assertEquals("invoice.paid", json.getString("type"));
        assertEquals("in_42", json.getJsonObject("data").getJsonObject("object").getString("id"));
    }

    @Test
    void payloadAsBindsToARecordAndIgnoresPropertiesItDoesNotHave() {
        Paid paid = eventWith(PAID).payloadAs(Paid.class);

        assertEquals("invoice.paid", paid.type());
        assertEquals(new Invoice("in_42", 1999, "eur", List.of("seat", "support")), paid.data().object());
    }

    @Test
    void payloadAsLeavesWhatThePayloadLacksNull() {
        Invoice invoice = eventWith("{\"id\":\"in_1\"}").payloadAs(Invoice.class);

        assertEquals("in_1", invoice.id());
        assertNull(invoice.currency());
    }

    @Test
    void aMalformedPayloadIsAPermanentFailureThatSaysWhy() {
        var event = eventWith("{\"id\": \"in_1\", ");

        var json = assertThrows(PermanentFailure.class, event::json);
        var bound = assertThrows(PermanentFailure.class, () -> event.payloadAs(Invoice.class));

        assertTrue(json.getMessage().contains("is not a JSON object"), json.getMessage());
        assertTrue(json.getMessage().contains("evt_1"), json.getMessage());
        assertTrue(bound.getMessage().contains("cannot be read as Invoice"), bound.getMessage());
    }

    @Test
    void aPayloadThatIsNotAnObjectIsAPermanentFailure() {
        assertThrows(PermanentFailure.class, () -> eventWith("[1, 2]").json());
        assertThrows(PermanentFailure.class, () -> eventWith("From=%2B15551234567&Body=hi").json());
    }

    @Test
    void aValueOfAnotherTypeIsAPermanentFailure() {
        var event = eventWith("{\"id\":\"in_1\",\"amount_paid\":\"a lot\"}");

        var failure = assertThrows(PermanentFailure.class, () -> event.payloadAs(Invoice.class));

        assertTrue(failure.getMessage().contains("Invoice"), failure.getMessage());
    }
}
