package dev.hookstile.platform;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The table of {@code redaction-cases.tsv}: what a text becomes once redacted, for the application's
 * {@link Redacted#url} and the shell scripts' {@code redact} alike.
 */
final class RedactionCases {

    record Case(String input, String expected) {
    }

    private RedactionCases() {
    }

    static List<Case> all() {
        try (InputStream in = RedactionCases.class.getResourceAsStream("redaction-cases.tsv")) {
            if (in == null) {
                throw new IllegalStateException("redaction-cases.tsv is not on the test class path");
            }
            List<Case> cases = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(line -> !line.isBlank() && !line.startsWith("#"))
                    .map(line -> {
                        String[] parts = line.split("\t", -1);
                        if (parts.length != 2) {
                            throw new IllegalStateException("not <input> TAB <expected>: " + line);
                        }
                        return new Case(parts[0], parts[1]);
                    })
                    .toList();
            if (cases.isEmpty()) {
                throw new IllegalStateException("redaction-cases.tsv holds no case");
            }
            return cases;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
