package dev.hookstile.test;

import org.jboss.shrinkwrap.api.ArchivePath;
import org.jboss.shrinkwrap.api.Node;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HookstileDeploymentTest {

    @TempDir
    Path dir;

    private Path war() {
        Path war = dir.resolve("hookstile.war");
        ShrinkWrap.create(WebArchive.class, "hookstile.war")
                .addAsWebInfResource(new StringAsset("<web-app/>"), "web.xml")
                .as(ZipExporter.class).exportTo(war.toFile());
        return war;
    }

    private static JavaArchive handlers(WebArchive archive) {
        Node jar = archive.get("/WEB-INF/lib/hookstile-test-handlers.jar");
        assertNotNull(jar, "the handlers' jar");
        return archive.getAsType(JavaArchive.class, jar.getPath());
    }

    private static Properties settings(JavaArchive jar) throws IOException {
        var properties = new Properties();
        try (InputStream in = jar.get("/META-INF/microprofile-config.properties").getAsset().openStream()) {
            properties.load(in);
        }
        return properties;
    }

    @Test
    void theHandlersAndTheirSettingsGoIntoAJarOfTheirOwnAboveTheEnvironment() throws IOException {
        WebArchive archive = HookstileDeployment.of(war())
                .addClasses(HookstileDeploymentTest.class)
                .source("billing", "stripe", "whsec_old", "whsec_new")
                .setting("billing.receipts-url", "http://127.0.0.1:8025/receipts?to=a b#x")
                .setting("billing.note", "line one\nline two ünicode = : !")
                .archive();

        assertNotNull(archive.get("/WEB-INF/web.xml"), "Hookstile's WAR, unchanged");
        JavaArchive jar = handlers(archive);
        ArchivePath test = org.jboss.shrinkwrap.api.ArchivePaths.create(
                "/dev/hookstile/test/HookstileDeploymentTest.class");
        assertTrue(jar.contains(test));
        assertTrue(jar.contains("/META-INF/beans.xml"));
        Properties settings = settings(jar);
        assertEquals(Map.of(
                "config_ordinal", "500",
                "hookstile.outbox.interval-ms", "200",
                "hookstile.sources", "billing",
                "hookstile.sources.billing.provider", "stripe",
                "hookstile.sources.billing.secrets", "whsec_old,whsec_new",
                "billing.receipts-url", "http://127.0.0.1:8025/receipts?to=a b#x",
                "billing.note", "line one\nline two ünicode = : !"), Map.copyOf(settings));
    }

    @Test
    void theProjectsHandlerMigrationsComeAlongFromADirectoryOrAJar() throws Exception {
        Path classes = dir.resolve("classes");
        Files.createDirectories(classes.resolve("db/handler-migration"));
        Files.writeString(classes.resolve("db/handler-migration/V1__issue_event.sql"), "CREATE TABLE issue_event ()");
        Path library = dir.resolve("library.jar");
        ShrinkWrap.create(JavaArchive.class, "library.jar")
                .addAsResource(new StringAsset("CREATE TABLE ledger ()"), "db/handler-migration/V100__ledger.sql")
                .as(ZipExporter.class).exportTo(library.toFile());
        String war = System.getProperty("hookstile.test.war");
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        Path hookstileWar = war();
        System.setProperty("hookstile.test.war", hookstileWar.toString());
        try (var projectClassPath = new URLClassLoader(new URL[] {classes.toUri().toURL(), library.toUri().toURL()},
                before)) {
            thread.setContextClassLoader(projectClassPath);
            JavaArchive jar = handlers(HookstileDeployment.withHandlers(HookstileDeploymentTest.class).archive());

            assertEquals("CREATE TABLE issue_event ()", text(jar, "/db/handler-migration/V1__issue_event.sql"));
            assertEquals("CREATE TABLE ledger ()", text(jar, "/db/handler-migration/V100__ledger.sql"));
            JavaArchive overlay = handlers(HookstileDeployment.of(hookstileWar).archive());
            assertNull(overlay.get("/db/handler-migration/V1__issue_event.sql"),
                    "a WAR overlay holds its handlers' jars, migrations included, already");
        } finally {
            thread.setContextClassLoader(before);
            if (war == null) {
                System.clearProperty("hookstile.test.war");
            } else {
                System.setProperty("hookstile.test.war", war);
            }
        }
    }

    private static String text(JavaArchive jar, String path) throws IOException {
        Node node = jar.get(path);
        assertNotNull(node, path + " in " + jar.toString(true));
        try (InputStream in = node.getAsset().openStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void aSourceNeedsAPlainNameAndASecret() {
        HookstileDeployment deployment = HookstileDeployment.of(war());

        assertThrows(IllegalArgumentException.class, () -> deployment.source("Billing/x", "stripe", "s"));
        assertThrows(IllegalArgumentException.class, () -> deployment.source("billing", "stripe"));
        assertThrows(IllegalArgumentException.class, () -> HookstileDeployment.of(dir.resolve("none.war")));
    }
}
