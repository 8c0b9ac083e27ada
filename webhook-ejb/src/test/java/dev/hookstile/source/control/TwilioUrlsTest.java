package dev.hookstile.source.control;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TwilioUrlsTest {

    @Test
    void listsTheUrlWithAndWithoutItsPort() {
        assertEquals(List.of("https://h.example/p?q=1", "https://h.example:443/p?q=1"),
                TwilioUrls.portVariants("https://h.example/p?q=1"));
        assertEquals(List.of("http://u:pw@h.example:8080/p", "http://u:pw@h.example/p"),
                TwilioUrls.portVariants("http://u:pw@h.example:8080/p"));
        assertEquals(List.of("https://[::1]", "https://[::1]:443"), TwilioUrls.portVariants("https://[::1]"));
    }
}
