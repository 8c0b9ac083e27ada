package dev.hookstile.platform.boundary;

import dev.hookstile.it.Deployments;
import dev.hookstile.it.ExternalBroker;
import dev.hookstile.it.ItEnvironment;
import dev.hookstile.it.ServerProcess;
import dev.hookstile.it.Webhooks;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.UUID;

import static dev.hookstile.it.Webhooks.completed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An external broker that lets in only a user with a password, as a broker on a network must: the launcher hands
 * {@code HOOKSTILE_BROKER_USER} and the password from {@code HOOKSTILE_BROKER_PASSWORD_FILE} to the resource adapter,
 * events flow, and the password is nowhere in what the server prints.
 */
class BrokerCredentialsIT {

    // Every character asadmin or sed treat specially, and more than 16 of them.
    private static final String PASSWORD = "Pw:9=x&y/z+w\\|q-7Kd2";

    @Test
    void eventsFlowThroughABrokerThatRequiresAUserAndPasswordWhichNoLogShows() throws Exception {
        Path work = ItEnvironment.faultWorkDirectory();
        Path passwordFile = Files.writeString(work.resolve("broker-password"), PASSWORD + "\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(passwordFile, PosixFilePermissions.fromString("rw-------"));
        try (var broker = new ExternalBroker(work.resolve("broker")).requiring("hookstile", PASSWORD).start();
             var server = new ServerProcess(work, Deployments.exportTo(work.resolve("hookstile-it.war")))) {
            server.with("HOOKSTILE_BROKER_URL", broker.url())
                    .with("HOOKSTILE_BROKER_USER", "hookstile")
                    .with("HOOKSTILE_BROKER_PASSWORD_FILE", passwordFile.toString())
                    .start();
            Webhooks webhooks = server.webhooks();
            String id = "credentials-" + UUID.randomUUID();

            assertEquals(202, webhooks.send(webhooks.standard("it", id, "{\"type\":\"authenticated\"}")).statusCode());
            assertEquals(1, webhooks.awaitRecorded("it", id, completed(), Duration.ofSeconds(60)).getInt("effects"));

            assertTrue(server.stop(), "SIGTERM stops the server");
            String log = Files.readString(work.resolve("server-1.log"), StandardCharsets.UTF_8);
            assertTrue(log.contains("broker: external, " + broker.url() + " as hookstile"), "the launcher says where");
            assertFalse(log.contains(PASSWORD), "the password is in the server's output");
            assertFalse(log.contains("Pw\\:9\\=x"), "the escaped password is in the server's output");
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(
                    work.resolve("data").resolve("run").resolve("post-boot.asadmin"))),
                    "the boot file holding the password is its owner's alone");
            // The same start's loopback data grid: a cluster name of its own, which a local user cannot guess.
            assertTrue(Files.readString(work.resolve("data").resolve("run").resolve("hazelcast.xml"))
                    .matches("(?s).*<cluster-name>hookstile-[0-9a-f]{32}</cluster-name>.*"), "a random cluster name");
        }
    }
}
