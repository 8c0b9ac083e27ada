package dev.hookstile.platform;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shell scripts' {@code redact} ({@code config/urls.sh}, sourced by {@code ./hookstile} and
 * {@code config/payara-server.sh}) hides what {@link Redacted#url} hides: run by {@code bash} over the same table of
 * cases as {@link RedactedTest}.
 */
class LauncherRedactionTest {

    private static final Path LIBRARY = Path.of("..", "config", "urls.sh").toAbsolutePath().normalize();

    @Test
    void theScriptsRedactEveryCaseAsTheApplicationDoes() throws IOException, InterruptedException {
        List<RedactionCases.Case> cases = RedactionCases.all();
        // One bash for the table: a line in, the redacted line out.
        var process = new ProcessBuilder("bash", "-c",
                "source \"$1\" && while IFS= read -r line; do redact \"$line\"; printf '\\n'; done", "bash",
                LIBRARY.toString()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (var in = process.getOutputStream()) {
            for (RedactionCases.Case c : cases) {
                in.write((c.input() + "\n").getBytes(StandardCharsets.UTF_8));
            }
        }
        List<String> shown = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines()
                .toList();
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "bash did not end");
        assertEquals(0, process.exitValue());

        List<String> wrong = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            String got = i < shown.size() ? shown.get(i) : "(nothing)";
            if (!cases.get(i).expected().equals(got)) {
                wrong.add(cases.get(i).input() + " -> " + got + ", not " + cases.get(i).expected());
            }
        }
        assertEquals(List.of(), wrong);
        assertEquals(cases.size(), shown.size());
    }

    @Test
    void bothScriptsUseTheOneLibraryAndDefineNoRedactionOfTheirOwn() throws IOException {
        for (Path script : List.of(Path.of("..", "hookstile"), Path.of("..", "config", "payara-server.sh"))) {
            String text = Files.readString(script);
            assertTrue(text.contains("config/urls.sh\""), script + " sources config/urls.sh");
            assertTrue(!text.contains("redact()") && !text.contains("jms.sendTimeout jms."),
                    script + " defines redact or the broker's bounds itself");
        }
    }
}
