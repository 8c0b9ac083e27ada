package dev.hookstile.outbox.control;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

class HttpForwardingTest {

    @Test
    void twoHundredsAreDelivered() {
        assertInstanceOf(HttpForwarding.Delivered.class, HttpForwarding.classify(200, null));
        assertInstanceOf(HttpForwarding.Delivered.class, HttpForwarding.classify(204, null));
    }

    @Test
    void timeoutsTooManyRequestsAndServerErrorsAreTriedAgain() {
        for (int status : new int[]{408, 429, 500, 502, 503}) {
            assertInstanceOf(HttpForwarding.Transient.class, HttpForwarding.classify(status, null), "HTTP " + status);
        }
    }

    @Test
    void otherClientErrorsAreFinal() {
        for (int status : new int[]{400, 401, 403, 404, 410, 422}) {
            assertInstanceOf(HttpForwarding.Permanent.class, HttpForwarding.classify(status, null), "HTTP " + status);
        }
    }

    @Test
    void aRetryAfterInSecondsIsKeptAndADateIsLeftToTheBackOff() {
        var seconds = (HttpForwarding.Transient) HttpForwarding.classify(429, "120");
        var date = (HttpForwarding.Transient) HttpForwarding.classify(503, "Wed, 21 Oct 2026 07:28:00 GMT");

        assertEquals(OptionalLong.of(120), seconds.retryAfterSeconds());
        assertEquals(OptionalLong.empty(), date.retryAfterSeconds());
    }

    /** The example of the Standard Webhooks specification's reference implementations. */
    @Test
    void signsTheStandardWebhooksWay() {
        byte[] secret = Base64.getDecoder().decode("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
        String body = "{\"test\": 2432232314}";

        assertEquals("g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=", HttpForwarding.signature(secret,
                "msg_p5jXN8AQM9LWM0D4loKWxJek", "1614265330", body.getBytes(StandardCharsets.UTF_8)));
    }
}
