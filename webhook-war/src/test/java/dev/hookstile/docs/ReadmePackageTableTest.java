package dev.hookstile.docs;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's table of features names the classes a newcomer looks for: each must exist in that feature's packages
 * of the module whose column names it, or the map sends the newcomer nowhere.
 */
class ReadmePackageTableTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    /** A table row: | `feature` | webhook-ejb | webhook-war |. */
    private static final Pattern ROW = Pattern.compile("^\\| `([a-z]+)` \\|(.*)\\|(.*)\\|\\s*$");
    /** A class name in backticks: `EventRecorder`. */
    private static final Pattern CLASS = Pattern.compile("`([A-Z][A-Za-z0-9]+)`");

    private static List<String> classesIn(String cell) {
        var names = new ArrayList<String>();
        Matcher matcher = CLASS.matcher(cell);
        while (matcher.find()) {
            names.add(matcher.group(1));
        }
        return names;
    }

    private static boolean existsIn(String module, String feature, String name) throws IOException {
        Path packages = ROOT.resolve(module).resolve("src/main/java/dev/hookstile").resolve(feature);
        if (!Files.isDirectory(packages)) {
            return false;
        }
        try (Stream<Path> files = Files.walk(packages)) {
            return files.anyMatch(file -> file.getFileName().toString().equals(name + ".java")
                    || containsNested(file, name));
        }
    }

    /** A nested type (an enum or record inside a class of the feature) counts as the feature's. */
    private static boolean containsNested(Path file, String name) {
        if (!file.toString().endsWith(".java")) {
            return false;
        }
        try {
            return Pattern.compile("\\b(class|record|enum|interface) " + name + "\\b").matcher(Files.readString(file))
                    .find();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void everyClassTheTableNamesIsInItsFeatureAndModule() throws IOException {
        List<String> lines = Files.readAllLines(ROOT.resolve("README.md"));
        var missing = new ArrayList<String>();
        int rows = 0;
        boolean inTable = false;
        for (String line : lines) {
            if (line.startsWith("| feature | webhook-ejb | webhook-war |")) {
                inTable = true;
                continue;
            }
            if (inTable && !line.startsWith("|")) {
                break;
            }
            Matcher row = ROW.matcher(line);
            if (!inTable || !row.matches()) {
                continue;
            }
            rows++;
            String feature = row.group(1);
            for (String name : classesIn(row.group(2))) {
                if (!existsIn("webhook-ejb", feature, name)) {
                    missing.add("webhook-ejb " + feature + ": " + name);
                }
            }
            for (String name : classesIn(row.group(3))) {
                if (!existsIn("webhook-war", feature, name)) {
                    missing.add("webhook-war " + feature + ": " + name);
                }
            }
        }
        assertTrue(rows >= 10, "the README's feature table was not found (" + rows + " rows)");
        assertEquals(List.of(), missing, "classes the README's feature table names but the code does not have");
    }
}
