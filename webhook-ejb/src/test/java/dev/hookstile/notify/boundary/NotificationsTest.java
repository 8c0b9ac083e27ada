package dev.hookstile.notify.boundary;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

class NotificationsTest {

    @Test
    void theTimerLooksASixthOfAWindowApartBetweenOneAndTenSeconds() {
        assertEquals(Duration.ofSeconds(10), Notifications.turn(Duration.ofSeconds(60)));
        assertEquals(Duration.ofSeconds(10), Notifications.turn(Duration.ofHours(1)));
        assertEquals(Duration.ofSeconds(5), Notifications.turn(Duration.ofSeconds(30)));
        assertEquals(Duration.ofSeconds(1), Notifications.turn(Duration.ofSeconds(5)));
        assertEquals(Duration.ofSeconds(1), Notifications.turn(Duration.ofSeconds(1)));
    }
}
