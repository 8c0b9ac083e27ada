package dev.hookstile.test;

import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.Asset;
import org.jboss.shrinkwrap.api.asset.ByteArrayAsset;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Hookstile's WAR with a project's handlers and the sources its test sends to, for an Arquillian
 * {@code @Deployment(testable = false)}:
 *
 * <pre>{@code
 * @Deployment(testable = false)
 * static WebArchive hookstile() {
 *     return HookstileDeployment.withHandlers(PaidInvoices.class, InvoicePaid.class)
 *             .source("billing", "stripe", SECRET)
 *             .archive();
 * }
 * }</pre>
 *
 * <p>The handler classes go into a jar of their own in {@code WEB-INF/lib}, with a {@code beans.xml}, the project's
 * schema migrations (every {@code db/handler-migration} on the test's class path, which holds the project's
 * {@code src/main/resources}: Hookstile applies them at start as it does from the handler's own jar) and the
 * settings as its {@code META-INF/microprofile-config.properties} at ordinal 500, above the environment and system
 * properties: what the test declares is what the server runs with, whatever the shell around it has set. The
 * secrets are test secrets, in a test archive that never leaves the build.
 */
public final class HookstileDeployment {

    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");
    /** Where a handler jar keeps its schema migrations, which Hookstile applies at start. */
    static final String MIGRATIONS = "db/handler-migration";

    private final Path war;
    private final List<Class<?>> classes = new ArrayList<>();
    private final Map<String, String> settings = new LinkedHashMap<>();
    private final List<String> sources = new ArrayList<>();
    private boolean migrations;

    private HookstileDeployment(Path war) {
        this.war = war;
        // Forwardings and handler effects due are sent five times a second instead of once: a test waits less.
        settings.put("hookstile.outbox.interval-ms", "200");
    }

    /** Hookstile's WAR as the test runtime holds it ({@link TestRuntime}) with these classes added. */
    public static HookstileDeployment withHandlers(Class<?>... handlerClasses) {
        String war = System.getProperty("hookstile.test.war");
        if (war == null) {
            throw new IllegalStateException(TestRuntime.RUNTIME + " is not set: the test runs without Hookstile's"
                    + " runtime (see TestRuntime)");
        }
        HookstileDeployment deployment = of(Path.of(war)).addClasses(handlerClasses);
        deployment.migrations = true;
        return deployment;
    }

    /** A WAR of Hookstile's that already holds the handlers, such as a project's WAR overlay. */
    public static HookstileDeployment of(Path war) {
        if (!Files.isRegularFile(war)) {
            throw new IllegalArgumentException("no WAR at " + war.toAbsolutePath());
        }
        return new HookstileDeployment(war);
    }

    /** More classes for the handlers' jar: handlers, the types they bind payloads to, test-only handlers. */
    public HookstileDeployment addClasses(Class<?>... more) {
        classes.addAll(List.of(more));
        return this;
    }

    /**
     * A source the test sends to, as {@code HOOKSTILE_SOURCES} and its {@code _PROVIDER} and {@code _SECRETS}
     * configure one in production.
     *
     * @param name     the {@code {source}} of {@code POST /webhooks/{source}}: lower-case letters, digits, dashes
     * @param provider {@code github}, {@code stripe}, {@code standard-webhooks}, ... (the README's provider table)
     * @param secrets  the signing secrets, newest last
     */
    public HookstileDeployment source(String name, String provider, String... secrets) {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("not a source name: " + name);
        }
        if (secrets.length == 0) {
            throw new IllegalArgumentException("a source needs a secret");
        }
        sources.add(name);
        settings.put("hookstile.sources." + name + ".provider", Objects.requireNonNull(provider, "provider"));
        settings.put("hookstile.sources." + name + ".secrets", String.join(",", secrets));
        return this;
    }

    /**
     * Any MicroProfile Config property, Hookstile's (the README's second column, such as
     * {@code hookstile.sources.billing.retries}) or the handlers' own.
     */
    public HookstileDeployment setting(String key, String value) {
        settings.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
        return this;
    }

    /** The archive to return from the {@code @Deployment} method. */
    public WebArchive archive() {
        var properties = new StringBuilder("config_ordinal=500\n");
        if (!sources.isEmpty()) {
            properties.append("hookstile.sources=").append(String.join(",", sources)).append('\n');
        }
        settings.forEach((key, value) -> properties.append(escape(key)).append('=').append(escape(value))
                .append('\n'));
        JavaArchive handlers = ShrinkWrap.create(JavaArchive.class, "hookstile-test-handlers.jar")
                .addClasses(classes.toArray(Class<?>[]::new))
                .addAsManifestResource(EmptyAsset.INSTANCE, "beans.xml")
                .addAsManifestResource(new StringAsset(properties.toString()), "microprofile-config.properties");
        if (migrations) {
            handlerMigrations().forEach((name, file) -> handlers.addAsResource(file, name));
        }
        return ShrinkWrap.createFromZipFile(WebArchive.class, war.toFile()).addAsLibrary(handlers);
    }

    /**
     * The project's handler migrations as resource name and content: from a directory ({@code target/classes}) or a
     * jar on the test's class path.
     */
    private static Map<String, Asset> handlerMigrations() {
        var found = new LinkedHashMap<String, Asset>();
        try {
            for (URL location : Collections.list(Thread.currentThread().getContextClassLoader()
                    .getResources(MIGRATIONS))) {
                if (location.getProtocol().equals("file")) {
                    Path dir = Path.of(location.toURI());
                    try (Stream<Path> files = Files.walk(dir)) {
                        for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                            String name = MIGRATIONS + "/" + dir.relativize(file).toString().replace('\\', '/');
                            found.putIfAbsent(name, new ByteArrayAsset(Files.readAllBytes(file)));
                        }
                    }
                } else if (location.getProtocol().equals("jar")
                        && location.openConnection() instanceof JarURLConnection connection) {
                    connection.setUseCaches(false);
                    try (JarFile jar = connection.getJarFile()) {
                        for (JarEntry entry : Collections.list(jar.entries())) {
                            if (!entry.isDirectory() && entry.getName().startsWith(MIGRATIONS + "/")) {
                                found.putIfAbsent(entry.getName(), new ByteArrayAsset(
                                        jar.getInputStream(entry).readAllBytes()));
                            }
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        return found;
    }

    /** As {@link java.util.Properties#load} reads it back. */
    private static String escape(String text) {
        var escaped = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            switch (c) {
                case '\\', '=', ':', '#', '!', ' ' -> escaped.append('\\').append(c);
                case '\n' -> escaped.append("\\n");
                case '\r' -> escaped.append("\\r");
                case '\t' -> escaped.append("\\t");
                default -> {
                    if (c < 0x20 || c > 0x7e) {
                        escaped.append(String.format("\\u%04x", (int) c));
                    } else {
                        escaped.append(c);
                    }
                }
            }
        }
        return escaped.toString();
    }
}
