package dev.hookstile.ear;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import static org.junit.jupiter.api.Assertions.fail;

/** What the EAR suite's tests do to a Payara Server domain and around it, shared by each of them. */
final class DomainCommands {

    private DomainCommands() {
    }

    static void asadmin(Path payaraHome, Map<String, String> env, String... arguments)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(payaraHome.resolve("bin/asadmin").toString()));
        command.addAll(List.of(arguments));
        run(env, command.toArray(String[]::new));
    }

    static void asadminIgnoringFailure(Path payaraHome, Map<String, String> env, String... arguments) {
        try {
            asadmin(payaraHome, env, arguments);
        } catch (Exception | AssertionError e) {
            // Nothing to stop or delete.
        }
    }

    /** Runs a command with the given environment added, its output in the test's log; fails unless it exits 0. */
    static void run(Map<String, String> env, String... command) throws IOException, InterruptedException {
        Ran ran = runAllowingFailure(env, command);
        if (ran.status() != 0) {
            fail(String.join(" ", command) + " exited " + ran.status() + ":\n" + ran.output());
        }
    }

    /** What a command answered: its exit status and its output, standard error included. */
    record Ran(int status, String output) {
    }

    /** Runs a command that may fail; answers its status and output. */
    static Ran runAllowingFailure(Map<String, String> env, String... command) throws IOException, InterruptedException {
        var builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(env);
        builder.environment().put("AS_JAVA", System.getProperty("java.home"));
        Process process = builder.start();
        String output;
        try (InputStream out = process.getInputStream()) {
            output = new String(out.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (!process.waitFor(5, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            fail(String.join(" ", command) + " did not finish within 5 minutes:\n" + output);
        }
        System.out.println("$ " + String.join(" ", command) + "\n" + output);
        return new Ran(process.exitValue(), output);
    }

    static byte[] hmacSha256(String secret, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                Files.delete(path);
            }
        }
    }
}
