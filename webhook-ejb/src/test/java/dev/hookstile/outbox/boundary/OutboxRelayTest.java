package dev.hookstile.outbox.boundary;

import dev.hookstile.outbox.control.HttpForwarding;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

class OutboxRelayTest {

    private static final HttpForwarding.Transient FAILED = new HttpForwarding.Transient("HTTP 503", OptionalLong.empty());

    @Test
    void backsOffDoublingFromTwoSecondsToTenMinutes() {
        assertEquals(Duration.ofSeconds(2), OutboxRelay.backoff(1, FAILED));
        assertEquals(Duration.ofSeconds(4), OutboxRelay.backoff(2, FAILED));
        assertEquals(Duration.ofSeconds(512), OutboxRelay.backoff(9, FAILED));
        assertEquals(Duration.ofMinutes(10), OutboxRelay.backoff(10, FAILED));
        assertEquals(Duration.ofMinutes(10), OutboxRelay.backoff(300, FAILED));
    }

    @Test
    void honoursALongerRetryAfterUpToAnHour() {
        var later = new HttpForwarding.Transient("HTTP 429", OptionalLong.of(90));
        var much = new HttpForwarding.Transient("HTTP 429", OptionalLong.of(86_400));
        var sooner = new HttpForwarding.Transient("HTTP 429", OptionalLong.of(1));

        assertEquals(Duration.ofSeconds(90), OutboxRelay.backoff(1, later));
        assertEquals(Duration.ofHours(1), OutboxRelay.backoff(1, much));
        assertEquals(Duration.ofSeconds(4), OutboxRelay.backoff(2, sooner));
    }
}
