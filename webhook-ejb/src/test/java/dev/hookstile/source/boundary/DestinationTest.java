package dev.hookstile.source.boundary;

import dev.hookstile.source.Destination;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class DestinationTest {

    @Test
    void printsItsSchemeHostAndPortOnlyNeverCredentialsPathOrQueryString() {
        var destination = new Destination(URI.create("https://relay:pa55word@example.com:8443/in/t0ken?token=t0ken"),
                new byte[32], List.of("invoice.*"));

        assertEquals("https://example.com:8443 [invoice.*]", destination.toString());
    }
}
