package dev.hookstile.docs;

import dev.hookstile.platform.boundary.ContainerResources;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's configuration tables and the code agree: every {@code HOOKSTILE_*} setting the application or the
 * launcher reads is documented, and every documented one is read. A property name ({@code hookstile.db.url}) counts
 * as its environment variable ({@code HOOKSTILE_DB_URL}), as MicroProfile Config maps them. A source's settings
 * ({@code HOOKSTILE_SOURCES_<NAME>_...}) are read under names built at run time and are left out on both sides.
 */
class ConfigurationTableTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    /** A whole name: not a prefix such as {@code HOOKSTILE_PROCESSING_} that code completes at run time. */
    private static final Pattern VARIABLE = Pattern.compile("HOOKSTILE_[A-Z0-9_]*[A-Z0-9](?![A-Z0-9_])");
    private static final Pattern PROPERTY = Pattern.compile("\"(hookstile\\.[a-z0-9.-]+)\"");

    private static Set<String> readByTheCode() throws IOException {
        // The queues' names look like properties and are not settings.
        Set<String> queues = new TreeSet<>(ContainerResources.ORDERED_QUEUE_NAMES);
        queues.add(ContainerResources.QUEUE_NAME);
        var names = new TreeSet<String>();
        for (String module : new String[] {"webhook-ejb", "webhook-war", "config"}) {
            try (Stream<Path> files = Files.walk(ROOT.resolve(module).resolve("src/main/java"))) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                    String source = Files.readString(file);
                    collect(VARIABLE.matcher(source), 0, names);
                    Matcher property = PROPERTY.matcher(source);
                    while (property.find()) {
                        // A span's attribute is named like a property and is not a setting.
                        String before = source.substring(Math.max(0, property.start() - 16), property.start());
                        boolean attribute = before.endsWith("setAttribute(") || before.endsWith(".set(");
                        if (!queues.contains(property.group(1)) && !attribute) {
                            names.add(property.group(1).toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_"));
                        }
                    }
                }
            }
        }
        // The launcher, and the library it shares with config/payara-server.sh.
        for (String script : new String[] {"hookstile", "config/urls.sh"}) {
            collect(VARIABLE.matcher(Files.readString(ROOT.resolve(script))), 0, names);
        }
        names.removeIf(name -> name.startsWith("HOOKSTILE_SOURCES_"));
        return names;
    }

    private static Set<String> documentedInTheReadme() throws IOException {
        var names = new TreeSet<String>();
        for (String line : Files.readAllLines(ROOT.resolve("README.md"))) {
            if (!line.startsWith("| `HOOKSTILE_")) {
                continue;
            }
            String firstCell = line.substring(1, line.indexOf('|', 1));
            if (!firstCell.contains("<")) {
                collect(VARIABLE.matcher(firstCell), 0, names);
            }
        }
        return names;
    }

    private static void collect(Matcher matcher, int group, Set<String> into) {
        while (matcher.find()) {
            into.add(matcher.group(group));
        }
    }

    @Test
    void everySettingTheCodeReadsIsDocumented() throws IOException {
        var undocumented = new TreeSet<>(readByTheCode());
        undocumented.removeAll(documentedInTheReadme());

        assertEquals(Set.of(), undocumented, "read by the code, missing from the README's configuration tables");
    }

    @Test
    void everyDocumentedSettingIsRead() throws IOException {
        Set<String> documented = documentedInTheReadme();
        var unread = new TreeSet<>(documented);
        unread.removeAll(readByTheCode());

        assertTrue(documented.size() > 40, "the README's configuration tables were not found: " + documented);
        assertEquals(Set.of(), unread, "in the README's configuration tables, read by nothing");
    }
}
