package dev.hookstile.launcher;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Both packagings bound every wait for an external broker alike: the resource adapter's {@code ServerUrl} as
 * {@code ./hookstile} writes it into Payara Micro's boot commands and as {@code config/payara-server.sh} gives it to
 * Payara Server's {@code asadmin}, each script run for real in a checkout whose {@code java} and {@code asadmin} are
 * stand-ins that only record what they were given.
 */
class BrokerBoundsTest {

    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern SERVER_URL = Pattern.compile("ServerUrl=((?:\\\\.|[^:\\s])*)");
    private static final List<String> BOUNDS = List.of("jms.sendTimeout", "jms.connectResponseTimeout",
            "jms.closeTimeout", "wireFormat.maxInactivityDuration");

    @TempDir
    Path home;

    private record Run(int exit, String output, String serverUrl) {
    }

    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    private static void executable(Path file, String script) throws IOException {
        write(file, script);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
    }

    private void checkout() throws IOException {
        for (String file : List.of("hookstile", "config/payara-server.sh", "config/urls.sh")) {
            Files.createDirectories(home.resolve(file).getParent());
            Files.copy(REPO.resolve(file), home.resolve(file));
        }
    }

    private static Run run(List<String> command, Map<String, String> environment, Path wrote)
            throws IOException, InterruptedException {
        var builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().remove("HOOKSTILE_BROKER_SEND_TIMEOUT_MS");
        builder.environment().putAll(environment);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the script did not end");
        String commands = Files.exists(wrote) ? Files.readString(wrote) : "";
        Matcher url = SERVER_URL.matcher(commands);
        return new Run(process.exitValue(), output, url.find() ? url.group(1) : null);
    }

    /** {@code ./hookstile}: the adapter's properties as it writes them into the boot commands. */
    private Run micro(Map<String, String> environment) throws IOException, InterruptedException {
        executable(home.resolve("bin/java"), "#!/usr/bin/env bash\n");
        Path runtime = home.resolve("config/target/runtime");
        write(runtime.resolve("micro/launch-micro.jar"), "");
        write(runtime.resolve("micro/.env"), "MICRO_OPENS=\"\"\n");
        write(runtime.resolve("micro/config/logging.properties"), ".level=INFO\n");
        Files.createDirectories(runtime.resolve("micro/docroot"));
        Files.createDirectories(runtime.resolve("micro/lib"));
        write(runtime.resolve("activemq-rar.rar"), "... hookstile-broker.jar ...");
        write(runtime.resolve("templates/post-boot.asadmin"),
                "create-resource-adapter-config --property @RA_PROPERTIES@ activemq-rar\n");
        for (String template : new String[] {"deploy-app.asadmin", "hazelcast.xml", "pre-boot.asadmin"}) {
            write(runtime.resolve("templates").resolve(template), "@CLUSTER_NAME@ @TX_LOG_DIR@\n");
        }
        write(runtime.resolve("hookstile-logging.jar"), "");
        Path war = home.resolve("own.war");
        write(war, "war");
        var env = new java.util.HashMap<>(environment);
        env.put("PATH", home.resolve("bin") + ":" + System.getenv("PATH"));
        env.put("HOOKSTILE_DATA_DIR", home.resolve("data").toString());
        env.put("HOOKSTILE_WAR", war.toString());
        return run(List.of("bash", home.resolve("hookstile").toString()), env,
                home.resolve("data/run/post-boot.asadmin"));
    }

    /** {@code config/payara-server.sh deploy}: the adapter's properties as it gives them to asadmin. */
    private Run server(Map<String, String> environment) throws IOException, InterruptedException {
        Path commands = home.resolve("asadmin-commands");
        executable(home.resolve("payara/bin/asadmin"), "#!/usr/bin/env bash\nprintf '%s\\n' \"$*\" >> \""
                + commands + "\"\n");
        write(home.resolve("hookstile.ear"), "ear");
        write(home.resolve("activemq-rar.rar"), "rar");
        var env = new java.util.HashMap<>(environment);
        env.put("PAYARA_HOME", home.resolve("payara").toString());
        env.put("HOOKSTILE_EAR", home.resolve("hookstile.ear").toString());
        env.put("HOOKSTILE_RAR", home.resolve("activemq-rar.rar").toString());
        return run(List.of("bash", home.resolve("config/payara-server.sh").toString(), "deploy"), env, commands);
    }

    @Test
    void bothPackagingsBoundEveryWaitForTheBrokerAlike() throws Exception {
        checkout();
        Map<String, String> broker = Map.of("HOOKSTILE_BROKER_URL", "tcp://mq.internal:61616?jms.useAsyncSend=false");

        Run micro = micro(broker);
        Run server = server(broker);

        assertEquals(0, micro.exit(), micro.output());
        assertEquals(0, server.exit(), server.output());
        for (String bound : BOUNDS) {
            assertTrue(micro.serverUrl().contains(bound + "\\=3000"), bound + " in " + micro.serverUrl());
        }
        assertEquals(micro.serverUrl(), server.serverUrl());
    }

    @Test
    void theBoundIsTheSettingsInBothAndABoundInTheUrlWins() throws Exception {
        checkout();
        Map<String, String> broker = Map.of(
                "HOOKSTILE_BROKER_URL", "failover:(tcp://a:61616,tcp://b:61616)?jms.closeTimeout=9000",
                "HOOKSTILE_BROKER_SEND_TIMEOUT_MS", "1500");

        Run micro = micro(broker);
        Run server = server(broker);

        assertEquals(0, server.exit(), server.output());
        assertTrue(server.serverUrl().contains("jms.sendTimeout\\=1500"), server.serverUrl());
        assertTrue(server.serverUrl().contains("jms.closeTimeout\\=9000"), server.serverUrl());
        assertFalse(server.serverUrl().contains("jms.closeTimeout\\=1500"), server.serverUrl());
        assertEquals(micro.serverUrl(), server.serverUrl());
    }

    @Test
    void aBoundOfZeroWhichWouldBeNoneRefusesBothNamingTheSetting() throws Exception {
        checkout();
        Map<String, String> broker = Map.of("HOOKSTILE_BROKER_URL", "tcp://mq.internal:61616",
                "HOOKSTILE_BROKER_SEND_TIMEOUT_MS", "0");

        Run micro = micro(broker);
        Run server = server(broker);

        for (Run run : List.of(micro, server)) {
            assertNotEquals(0, run.exit(), run.output());
            assertTrue(run.output().contains("HOOKSTILE_BROKER_SEND_TIMEOUT_MS"), run.output());
        }
    }

    @Test
    void bothPrintTheBrokerWithoutItsSecrets() throws Exception {
        checkout();
        Map<String, String> broker = Map.of("HOOKSTILE_BROKER_URL", "ssl://u:s3cret@mq:61617;password=s3cret");

        for (Run run : List.of(micro(broker), server(broker))) {
            assertTrue(run.output().contains("broker: external, ssl://***@mq:61617;password=***"), run.output());
            assertFalse(run.output().contains("s3cret"), run.output());
        }
    }
}
