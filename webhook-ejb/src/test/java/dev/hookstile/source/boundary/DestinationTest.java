package dev.hookstile.source.boundary;

import dev.hookstile.source.Destination;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class DestinationTest {

    @Test
    void printsWhereItPointsButNeverCredentialsOrTheQueryString() {
        var destination = new Destination(URI.create("https://relay:pa55word@example.com/in?token=t0ken"),
                new byte[32], List.of("invoice.*"));

        assertEquals("https://***@example.com/in?*** [invoice.*]", destination.toString());
    }
}
