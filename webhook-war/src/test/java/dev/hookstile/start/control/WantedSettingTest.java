package dev.hookstile.start.control;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

class WantedSettingTest {

    /** Fields of the types a check follows; read for their generic types. */
    @SuppressWarnings("unused")
    private static final class Injected {
        int count;
        Optional<Long> limit;
        URI endpoint;
    }

    private static java.lang.reflect.Type type(String field) throws NoSuchFieldException {
        return Injected.class.getDeclaredField(field).getGenericType();
    }

    private static StandaloneConfig config(Map<String, String> environment) {
        return new StandaloneConfig(WantedSettingTest.class.getClassLoader(), environment);
    }

    @Test
    void aRequiredSettingThatIsNotSetIsNamedWithWhoNeedsIt() throws Exception {
        var wanted = new WantedSetting("billing.receipts-url", type("endpoint"), ConfigProperty.UNCONFIGURED_VALUE,
                "com.example.PaidInvoices.receipts");

        assertEquals(Optional.of("BILLING_RECEIPTS_URL (billing.receipts-url): is required by"
                + " com.example.PaidInvoices.receipts, and not set"), wanted.problem(config(Map.of())));
        assertEquals(Optional.empty(), wanted.problem(config(Map.of("BILLING_RECEIPTS_URL", "https://r.example"))));
    }

    @Test
    void aNumberThatIsNotOneIsQuotedAndAnOptionalOrDefaultedSettingMayBeMissing() throws Exception {
        var count = new WantedSetting("hookstile.x.count", type("count"), "5", "X.count");
        var limit = new WantedSetting("hookstile.x.limit", type("limit"), ConfigProperty.UNCONFIGURED_VALUE, "X.limit");

        assertEquals(Optional.of("HOOKSTILE_X_COUNT (hookstile.x.count): '5k' is not a whole number (X.count)"),
                count.problem(config(Map.of("HOOKSTILE_X_COUNT", "5k"))));
        assertEquals(Optional.of("HOOKSTILE_X_LIMIT (hookstile.x.limit): 'many' is not a whole number (X.limit)"),
                limit.problem(config(Map.of("HOOKSTILE_X_LIMIT", "many"))));
        assertEquals(Optional.empty(), count.problem(config(Map.of())));
        assertEquals(Optional.empty(), limit.problem(config(Map.of())));
    }

    @Test
    void theConfigurationReadsSystemPropertiesThenTheEnvironmentThenTheApplicationsFiles(@TempDir Path classes)
            throws IOException {
        Files.createDirectories(classes.resolve("META-INF"));
        Files.writeString(classes.resolve("META-INF/microprofile-config.properties"),
                "it.from-file=file\nit.overridden=file\nit.list=a,b\\\\,c\n");
        try (var loader = new URLClassLoader(new java.net.URL[] {classes.toUri().toURL()}, null)) {
            var config = new StandaloneConfig(loader, Map.of("IT_OVERRIDDEN", "environment"));

            assertEquals("file", config.getValue("it.from-file", String.class));
            assertEquals("environment", config.getValue("it.overridden", String.class));
            assertEquals(java.util.List.of("a", "b,c"), java.util.Arrays.asList(config.getValue("it.list",
                    String[].class)));
            assertEquals(Optional.empty(), config.getOptionalValue("it.missing", String.class));
        }
    }
}
