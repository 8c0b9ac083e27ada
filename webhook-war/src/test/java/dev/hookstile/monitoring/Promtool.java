package dev.hookstile.monitoring;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Prometheus's {@code promtool}, from Debian's {@code prometheus} package ({@code .ci/run} installs it). Found at
 * {@code -Dhookstile.promtool=<binary>}, else on the {@code PATH}. A missing promtool fails the tests that need it,
 * naming the package to install; {@code -Dhookstile.promtool.skip=true} makes them skipped instead (reported as
 * skipped, never passed).
 */
final class Promtool {

    static final String PATH_PROPERTY = "hookstile.promtool";
    static final String SKIP_PROPERTY = "hookstile.promtool.skip";
    private static final long TIMEOUT_SECONDS = 120;

    record Result(int exitCode, String output) {

        boolean succeeded() {
            return exitCode == 0;
        }
    }

    private Promtool() {
    }

    static Optional<Path> find() {
        String configured = System.getProperty(PATH_PROPERTY, "");
        if (!configured.isBlank()) {
            Path binary = Path.of(configured);
            return Files.isExecutable(binary) ? Optional.of(binary) : Optional.empty();
        }
        for (String directory : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (!directory.isEmpty()) {
                Path binary = Path.of(directory, "promtool");
                if (Files.isExecutable(binary)) {
                    return Optional.of(binary);
                }
            }
        }
        return Optional.empty();
    }

    static boolean skipWhenMissing() {
        return Boolean.getBoolean(SKIP_PROPERTY);
    }

    static String missingMessage() {
        String configured = System.getProperty(PATH_PROPERTY, "");
        return (configured.isBlank() ? "promtool is not on the PATH" : "-D" + PATH_PROPERTY + "=" + configured
                + " is not an executable") + ": install Debian's prometheus package (apt-get install prometheus; "
                + ".ci/run does), or run with -D" + SKIP_PROPERTY + "=true to skip the promtool checks";
    }

    /** The binary; without one the calling test fails, or is skipped with {@value #SKIP_PROPERTY}. */
    static Path require() {
        Optional<Path> binary = find();
        if (binary.isPresent()) {
            return binary.get();
        }
        if (skipWhenMissing()) {
            Assumptions.abort(missingMessage());
        }
        throw new AssertionError(missingMessage());
    }

    /** Runs promtool in {@code directory} with {@code input} on its standard input; its output and errors as one. */
    static Result run(Path directory, String input, String... arguments) {
        List<String> command = new ArrayList<>();
        command.add(require().toString());
        command.addAll(List.of(arguments));
        ExecutorService pipes = Executors.newFixedThreadPool(2);
        try {
            Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                    .start();
            // Written and read on threads of their own: a large scrape must not wait for promtool to read it
            // while promtool waits for its output to be read.
            Future<?> written = pipes.submit(() -> write(process.getOutputStream(), input));
            Future<String> output = pipes.submit(() -> read(process.getInputStream()));
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("promtool " + String.join(" ", arguments) + " did not finish within "
                        + TIMEOUT_SECONDS + " s");
            }
            written.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            return new Result(process.exitValue(), output.get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        } catch (IOException e) {
            throw new UncheckedIOException("Could not run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while running " + command, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Could not talk to " + command, e);
        } finally {
            pipes.shutdownNow();
        }
    }

    private static void write(OutputStream stdin, String input) {
        try (stdin) {
            stdin.write(input.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            // promtool may exit before reading everything (an unparseable line): its output says why.
        }
    }

    private static String read(InputStream stdout) {
        try (stdout) {
            return new String(stdout.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
