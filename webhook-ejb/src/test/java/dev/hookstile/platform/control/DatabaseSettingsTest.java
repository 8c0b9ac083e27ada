package dev.hookstile.platform.control;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class DatabaseSettingsTest {

    private static DatabaseSettings at(String url) {
        return new DatabaseSettings(url, "u", "secret", 30);
    }

    @Test
    void describesAPostgresqlUrlWithoutItsOptions() {
        assertEquals("jdbc:postgresql://db:5432/hookstile",
                at("jdbc:postgresql://db:5432/hookstile?password=secret&sslmode=require").describe());
    }

    @Test
    void describesAUrlWithoutTheCredentialsInIt() {
        assertEquals("jdbc:postgresql://***@db:5432/hookstile",
                at("jdbc:postgresql://hookstile:secret@db:5432/hookstile").describe());
        assertEquals("jdbc:sqlserver://db;user=u;password=***", at("jdbc:sqlserver://db;user=u;password=secret").describe());
    }
}
