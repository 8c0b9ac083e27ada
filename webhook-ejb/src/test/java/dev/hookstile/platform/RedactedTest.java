package dev.hookstile.platform;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class RedactedTest {

    @Test
    void hidesUserAndPasswordButKeepsWhereTheUrlPoints() {
        assertEquals("tcp://***@broker.internal:61616", Redacted.url("tcp://hookstile:s3cr3t@broker.internal:61616"));
        assertEquals("https://***@example.com/hooks", Redacted.url("https://token@example.com/hooks"));
    }

    @Test
    void hidesQueryStringsAndFragments() {
        assertEquals("https://example.com/hooks?***", Redacted.url("https://example.com/hooks?token=abc&x=1"));
        assertEquals("https://example.com/hooks#***", Redacted.url("https://example.com/hooks#sig=abc"));
        assertEquals("jdbc:postgresql://db:5432/hookstile?***",
                Redacted.url("jdbc:postgresql://db:5432/hookstile?user=u&password=p"));
    }

    @Test
    void hidesEachPartOfACompositeBrokerUrl() {
        assertEquals("failover:(ssl://***@a:61617?***,tcp://b:61616?***)?***",
                Redacted.url("failover:(ssl://u:p@a:61617?jms.password=p,tcp://b:61616?x=1)?randomize=false"));
    }

    @Test
    void hidesPasswordOptionsOutsideAQuery() {
        assertEquals("jdbc:sqlserver://db;user=u;password=***;encrypt=true",
                Redacted.url("jdbc:sqlserver://db;user=u;password=hunter2;encrypt=true"));
        assertEquals("broker failed: Password=*** rejected", Redacted.url("broker failed: Password=hunter2 rejected"));
    }

    @Test
    void leavesAUrlWithoutCredentialsAsItIs() {
        assertEquals("tcp://127.0.0.1:61616", Redacted.url("tcp://127.0.0.1:61616"));
        assertEquals("http://127.0.0.1:18771/hooks", Redacted.url("http://127.0.0.1:18771/hooks"));
        assertEquals("vm://localhost", Redacted.url("vm://localhost"));
        assertNull(Redacted.url(null));
    }
}
