package dev.hookstile.ear;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Redeploying Hookstile on Payara Server piles nothing up: redeployed three times, each deployment put to work the
 * same way, the application's threads (its own, {@code hookstile-*}, and its HTTP client's) come back to at most the
 * first deployment's number, the server's live threads to at most the first deployment's, and the application class
 * loaders the server's heap holds to at most the first deployment's. A thread the application started and never
 * stopped, or anything else that still reaches an old deployment, keeps its class loaders, and with them every class
 * and static of that deployment, for the life of the server: each redeploy would pile up another copy. It did: the
 * body deadlines', the watchdogs' and the HTTP client's selector thread, one more each per redeploy; then, with the
 * threads gone, four more class loaders per redeploy (6, 10, 14, 18): the PostgreSQL driver registered in
 * {@code DriverManager} from the class loader Payara builds to prepare each deployment, and Payara's transaction
 * manager's record of each application thread that had used a transactional connection; the embedded broker's
 * store thread kept the first deployment too, and so did Payara's JTS resync thread until config/payara-server.sh
 * started it before the first deployment (docs/deployment.md). When the class loaders do not come back, the test
 * leaves the server's heap in {@code target/it/redeploy/} for the analysis.
 *
 * <p>Each deployment does what starts the application's own threads: an event forwarded to a destination (the HTTP
 * client's), a plain HTTP/1.1 body and an upgrade-offering body that stop arriving and are answered {@code 408} (the
 * body deadlines' and the blocking read's watchdog), besides ordinary processing (ingest's hand-off and duplicate
 * lookup threads). The counts are read from the server's JVM with {@code jcmd}: {@code Thread.print}, and
 * {@code GC.class_histogram}, which collects first. The threads are held to the first deployment's after each redeploy
 * (within two minutes), the class loaders once after the last (within the data sources' idle time and a margin): a
 * replaced deployment's class loaders may stay until Payara's connector timer thread has run past the cancelled pool
 * resizer of the replaced data source it waits for (docs/deployment.md).
 *
 * <p>A domain of its own (ports 29xxx), installed with {@code config/payara-server.sh} like {@link PayaraServerIT}'s,
 * which puts the PostgreSQL driver in the domain's libraries.
 */
class RedeployIT {

    private static final String DOMAIN = "hookstile-redeploy-it";
    private static final int PORT_BASE = 29000;
    private static final String BASE = "http://127.0.0.1:" + (PORT_BASE + 80) + "/";
    private static final String GITHUB_SECRET = "it-redeploy-github-secret";
    private static final int REDEPLOYS = 3;
    /** How long the old deployment's threads and class loaders may take to go after a redeploy. */
    private static final Duration SETTLE = Duration.ofMinutes(2);
    /**
     * How long a replaced deployment's class loaders may take to go: Payara's connector timer thread refers to the
     * next task it waits for, which may be the cancelled pool resizer of a replaced data source, until that task's
     * time comes, at most the data sources' idle time ({@code maxIdleTime} 300 s, ContainerResources) after the
     * redeploy; a margin on top.
     */
    private static final Duration LOADERS_SETTLE = Duration.ofSeconds(300 + 60);
    /** The class loaders an EAR deployment creates on Payara Server (its lib/, its EJB modules, each web module). */
    private static final Pattern APPLICATION_LOADER = Pattern.compile(
            "^\\s*\\d+:\\s+(\\d+)\\s+\\d+\\s+(\\S*\\.(?:EarClassLoader|EarLibClassLoader|WebappClassLoader))\\s*$");
    /** The threads the application starts: its own timers and pools, and the JDK HTTP client's (forwarding). */
    private static final Pattern APPLICATION_THREAD = Pattern.compile("hookstile-.*|HttpClient-.*");

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Path PAYARA_HOME = Path.of(System.getProperty("hookstile.it.payara-home"));
    private static final Path DIR = Path.of(System.getProperty("hookstile.it.dir"), "redeploy");
    private static final Map<String, String> environment = new HashMap<>();
    /** The events the destination received, by {@code webhook-id}. */
    private static final Set<String> forwarded = ConcurrentHashMap.newKeySet();

    private static HttpServer destination;
    private static Path ear;

    @BeforeAll
    static void installOnPayaraServer() throws Exception {
        deleteRecursively(DIR);
        Files.createDirectories(DIR);
        ear = Path.of(System.getProperty("hookstile.it.ear"));
        destination = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        destination.createContext("/hook", exchange -> {
            try (exchange) {
                exchange.getRequestBody().readAllBytes();
                forwarded.add(exchange.getRequestHeaders().getFirst("webhook-id"));
                exchange.sendResponseHeaders(204, -1);
            }
        });
        destination.start();
        environment.putAll(hookstileSettings());
        asadminIgnoringFailure("stop-domain", DOMAIN);
        asadminIgnoringFailure("delete-domain", DOMAIN);
        asadmin("create-domain", "--nopassword=true", "--portbase", String.valueOf(PORT_BASE), DOMAIN);
        asadmin("start-domain", DOMAIN);
        run(scriptEnvironment(), System.getProperty("hookstile.it.script"), "deploy");
        awaitReady();
    }

    @AfterAll
    static void removeFromPayaraServer() throws Exception {
        try {
            run(scriptEnvironment(), System.getProperty("hookstile.it.script"), "undeploy");
        } finally {
            try {
                // Not ignored: a domain that does not stop would be a server left running after the build.
                asadmin("stop-domain", DOMAIN);
                asadmin("delete-domain", DOMAIN);
            } finally {
                if (destination != null) {
                    destination.stop(0);
                }
            }
        }
    }

    @Test
    void redeployingLeavesNoThreadAndNoClassLoaderOfTheApplicationBehind() throws Exception {
        putToWork();
        Snapshot first = awaitSteady();
        assertTrue(first.loaders() > 0, "no application class loader found in the server's heap: " + first);
        assertTrue(first.applicationThreads() >= 3, "the body deadlines', the watchdogs' and the HTTP client's"
                + " threads run: " + first.threadNames());
        System.out.println("first deployment: " + first);

        for (int redeploy = 1; redeploy <= REDEPLOYS; redeploy++) {
            // As config/payara-server.sh deploys it: over the running deployment.
            asadmin("--port", String.valueOf(PORT_BASE + 48), "deploy", "--force=true", "--name", "hookstile",
                    ear.toString());
            awaitReady();
            putToWork();
            Snapshot now = awaitSettled(first, SETTLE, false);
            System.out.println("after redeploy " + redeploy + ": " + now);
            String detail = "after redeploy " + redeploy + ", within " + SETTLE.toSeconds() + " s: " + now
                    + "; the first deployment had " + first + "\nthreads not there after the first: "
                    + now.threadsBeyond(first);
            // At most: the forwarding client's pooled threads end after a minute idle, here or in the first.
            assertTrue(now.applicationThreads() <= first.applicationThreads(), detail);
            assertTrue(now.threads() <= first.threads(), detail);
        }
        // Once, after the last: every replaced deployment has had at least as long to go.
        Snapshot last = awaitSettled(first, LOADERS_SETTLE, true);
        System.out.println("after " + REDEPLOYS + " redeploys, class loaders settled: " + last);
        if (last.loaders() > first.loaders()) {
            fail("application class loaders after " + REDEPLOYS + " redeploys, within " + LOADERS_SETTLE.toSeconds()
                    + " s: " + last + "; the first deployment had " + first
                    + "\nthe server's heap, to find what holds them: " + heapDump("redeployed"));
        }
    }

    /** What starts the application's own threads, each waited for by its answer. */
    private static void putToWork() throws Exception {
        String id = "redeploy-" + UUID.randomUUID();
        String body = "{\"action\":\"opened\",\"id\":\"" + id + "\"}";
        HttpResponse<String> accepted = HTTP.send(HttpRequest.newBuilder(URI.create(BASE + "webhooks/gh"))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .header("X-GitHub-Delivery", id)
                .header("X-GitHub-Event", "issues")
                .header("X-Hub-Signature-256", "sha256=" + HexFormat.of().formatHex(hmac(body)))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(202, accepted.statusCode(), accepted.body());
        assertEquals("408", stalledBody(false), "a plain HTTP/1.1 body that stops arriving");
        assertEquals("408", stalledBody(true), "a body that stops arriving on a request offering an upgrade");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!forwarded.contains("gh:" + id)) {
            if (System.nanoTime() > deadline) {
                fail("gh:" + id + " was not forwarded to the destination within 60 s; received " + forwarded);
            }
            Thread.sleep(100);
        }
    }

    /**
     * Declares a body and sends only part of it; the status the server answers (its body deadline is 1 s here).
     * Written on a socket of its own: an HTTP client would send the whole body.
     */
    private static String stalledBody(boolean offerUpgrade) throws IOException {
        try (var socket = new Socket(InetAddress.getLoopbackAddress(), PORT_BASE + 80)) {
            socket.setSoTimeout(30_000);
            String request = "POST /webhooks/gh HTTP/1.1\r\n"
                    + "Host: 127.0.0.1:" + (PORT_BASE + 80) + "\r\n"
                    // A protocol the server does not speak (h2c it may accept, and then answers 101).
                    + (offerUpgrade ? "Connection: Upgrade\r\nUpgrade: hookstile-test/1\r\n" : "")
                    + "Content-Type: application/json\r\n"
                    + "Content-Length: 100\r\n"
                    + "X-GitHub-Delivery: stalled-" + UUID.randomUUID() + "\r\n"
                    + "X-GitHub-Event: issues\r\n"
                    + "\r\n"
                    + "{\"action\":";
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            var statusLine = new StringBuilder();
            for (int c; (c = in.read()) >= 0 && c != '\n'; ) {
                statusLine.append((char) c);
            }
            String[] parts = statusLine.toString().trim().split(" ");
            return parts.length > 1 ? parts[1] : "no answer: " + statusLine;
        }
    }

    /**
     * The first deployment at rest: the thread and class loader counts read until they stay the same three times in a
     * row (the deployment's and the requests' short-lived threads gone, the class loaders Payara used to prepare the
     * deployment collected), at most the settle time.
     */
    private static Snapshot awaitSteady() throws Exception {
        long deadline = System.nanoTime() + SETTLE.toNanos();
        Snapshot now = Snapshot.take();
        int same = 0;
        while (same < 2 && System.nanoTime() < deadline) {
            Thread.sleep(2_000);
            Snapshot next = Snapshot.take();
            same = next.threads() == now.threads() && next.loaders() == now.loaders() ? same + 1 : 0;
            now = next;
        }
        return now;
    }

    /**
     * Waits until the threads (and, if asked, the class loaders) are back to the first deployment's, or the given
     * time has passed.
     */
    private static Snapshot awaitSettled(Snapshot first, Duration within, boolean loaders) throws Exception {
        long deadline = System.nanoTime() + within.toNanos();
        Snapshot now = Snapshot.take();
        while ((now.applicationThreads() > first.applicationThreads() || now.threads() > first.threads()
                || loaders && now.loaders() > first.loaders()) && System.nanoTime() < deadline) {
            Thread.sleep(loaders ? 5_000 : 2_000);
            now = Snapshot.take();
        }
        return now;
    }

    /** The server JVM's live threads (by name) and the application class loaders its heap holds after a full GC. */
    private record Snapshot(List<String> threadNames, Map<String, Integer> loadersByClass) {

        static Snapshot take() throws Exception {
            String pid = Files.readString(PAYARA_HOME.resolve("glassfish/domains/" + DOMAIN + "/config/pid")).trim();
            // The histogram of live objects runs a full collection first: what it counts is what is still held.
            var loaders = new TreeMap<String, Integer>();
            for (String line : jcmd(pid, "GC.class_histogram").split("\n")) {
                Matcher matcher = APPLICATION_LOADER.matcher(line);
                if (matcher.find()) {
                    loaders.merge(matcher.group(2), Integer.parseInt(matcher.group(1)), Integer::sum);
                }
            }
            List<String> threads = jcmd(pid, "Thread.print").lines()
                    .filter(line -> line.startsWith("\""))
                    .map(line -> line.substring(1, line.indexOf('"', 1)))
                    .toList();
            return new Snapshot(threads, loaders);
        }

        int threads() {
            return threadNames.size();
        }

        long applicationThreads() {
            return threadNames.stream().filter(name -> APPLICATION_THREAD.matcher(name).matches()).count();
        }

        int loaders() {
            return loadersByClass.values().stream().mapToInt(Integer::intValue).sum();
        }

        /** Thread names (digits folded) that are more numerous now than in {@code earlier}. */
        String threadsBeyond(Snapshot earlier) {
            Map<String, Long> now = folded(threadNames);
            Map<String, Long> before = folded(earlier.threadNames);
            return now.entrySet().stream()
                    .filter(e -> e.getValue() > before.getOrDefault(e.getKey(), 0L))
                    .map(e -> e.getKey() + " x" + (e.getValue() - before.getOrDefault(e.getKey(), 0L)))
                    .collect(Collectors.joining(", ", "[", "]"));
        }

        private static Map<String, Long> folded(List<String> names) {
            return names.stream().collect(Collectors.groupingBy(n -> n.replaceAll("\\d+", "#"), TreeMap::new,
                    Collectors.counting()));
        }

        @Override
        public String toString() {
            return threads() + " live threads (" + applicationThreads() + " of the application), " + loaders()
                    + " application class loaders " + loadersByClass;
        }
    }

    /** The server's live heap written under the test's directory (a few hundred MB); its path. */
    private static Path heapDump(String name) throws Exception {
        Path file = DIR.resolve(name + ".hprof");
        Files.deleteIfExists(file);
        jcmd(Files.readString(PAYARA_HOME.resolve("glassfish/domains/" + DOMAIN + "/config/pid")).trim(),
                "GC.heap_dump " + file);
        return file;
    }

    private static String jcmd(String pid, String command) throws IOException, InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        var arguments = new ArrayList<>(List.of(jcmd.toString(), pid));
        arguments.addAll(List.of(command.split(" ")));
        Process process = new ProcessBuilder(arguments).redirectErrorStream(true).start();
        String output;
        try (InputStream out = process.getInputStream()) {
            output = new String(out.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (!process.waitFor(2, TimeUnit.MINUTES) || process.exitValue() != 0) {
            process.destroyForcibly();
            fail("jcmd " + pid + " " + command + " failed:\n" + output);
        }
        return output;
    }

    // --- the server --------------------------------------------------------------------------------------------

    private static Map<String, String> hookstileSettings() throws Exception {
        var settings = new HashMap<String, String>();
        settings.put("HOOKSTILE_SOURCES", "gh");
        settings.put("HOOKSTILE_SOURCES_GH_PROVIDER", "github");
        settings.put("HOOKSTILE_SOURCES_GH_SECRETS", GITHUB_SECRET);
        settings.put("HOOKSTILE_SOURCES_GH_DESTINATION_URL",
                "http://127.0.0.1:" + destination.getAddress().getPort() + "/hook");
        settings.put("HOOKSTILE_SOURCES_GH_DESTINATION_SECRET",
                "whsec_" + Base64.getEncoder().encodeToString("it-redeploy-destination-key".getBytes(StandardCharsets.UTF_8)));
        settings.put("HOOKSTILE_OUTBOX_INTERVAL_MS", "200");
        settings.put("HOOKSTILE_INGEST_BODY_TIMEOUT_SECONDS", "1");
        settings.put("HOOKSTILE_ADMIN_TOKEN", "it-operator-token-redeploy-0123456789abcdef");
        settings.put("HOOKSTILE_DATA_DIR", DIR.resolve("data").toString());
        String url = System.getenv().getOrDefault("HOOKSTILE_TEST_DB_URL", "jdbc:postgresql://127.0.0.1:5432/test");
        String user = System.getenv().getOrDefault("HOOKSTILE_TEST_DB_USER", "postgres");
        String password = System.getenv().getOrDefault("HOOKSTILE_TEST_DB_PASSWORD", "");
        // A schema of its own: the database may hold other runs' events.
        String schema = "redeploy_it_" + Long.toHexString(System.nanoTime());
        try (var connection = DriverManager.getConnection(url, user, password);
             var statement = connection.createStatement()) {
            statement.execute("CREATE SCHEMA " + schema);
        }
        settings.put("HOOKSTILE_DB_URL", url + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema);
        settings.put("HOOKSTILE_DB_USER", user);
        if (!password.isEmpty()) {
            settings.put("HOOKSTILE_DB_PASSWORD", password);
        }
        return settings;
    }

    private static Map<String, String> scriptEnvironment() {
        Map<String, String> script = new HashMap<>(environment);
        script.put("PAYARA_HOME", PAYARA_HOME.toString());
        script.put("ASADMIN_OPTIONS", "--port " + (PORT_BASE + 48));
        script.put("HOOKSTILE_EAR", ear.toString());
        script.put("HOOKSTILE_RAR", System.getProperty("hookstile.it.rar"));
        script.put("HOOKSTILE_BROKER_DIR", DIR.resolve("broker").toString());
        return script;
    }

    private static void awaitReady() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<String> ready = HTTP.send(HttpRequest.newBuilder(URI.create(BASE + "health/ready"))
                        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
                if (ready.statusCode() == 200) {
                    return;
                }
                last = ready.statusCode() + " " + ready.body();
            } catch (IOException e) {
                last = e.toString();
            }
            Thread.sleep(500);
        }
        fail("Hookstile on Payara Server is not ready after 90 s: " + last + "; see "
                + PAYARA_HOME.resolve("glassfish/domains/" + DOMAIN + "/logs/server.log"));
    }

    private static void asadmin(String... arguments) throws IOException, InterruptedException {
        DomainCommands.asadmin(PAYARA_HOME, environment, arguments);
    }

    private static void asadminIgnoringFailure(String... arguments) {
        DomainCommands.asadminIgnoringFailure(PAYARA_HOME, environment, arguments);
    }

    private static void run(Map<String, String> env, String... command) throws IOException, InterruptedException {
        DomainCommands.run(env, command);
    }

    private static byte[] hmac(String data) {
        return DomainCommands.hmacSha256(GITHUB_SECRET, data);
    }

    private static void deleteRecursively(Path dir) throws IOException {
        DomainCommands.deleteRecursively(dir);
    }
}
