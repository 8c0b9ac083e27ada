package dev.hookstile.ear;

import com.sun.net.httpserver.HttpServer;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The enterprise deployment on the real server: Payara Server 6 Full from Maven Central, a domain of its own
 * created and started with {@code asadmin}, Hookstile installed by {@code config/payara-server.sh} exactly as
 * {@code docs/deployment.md} says (the ActiveMQ adapter with its embedded broker, then the EAR), PostgreSQL as the
 * database. The EAR is the built one plus a handler jar in {@code lib/}, the way a handler author adds theirs.
 * Anything that cannot start fails the class.
 */
class PayaraServerIT {

    private static final String DOMAIN = "hookstile-it";
    /** Admin port 28048, HTTP 28080: clear of a developer's own domain on 4848/8080. */
    private static final int PORT_BASE = 28000;
    private static final String GITHUB_SECRET = "it-github-secret";
    private static final String STRIPE_SECRET = "whsec_it_stripe_secret";
    private static final String ADMIN_TOKEN = "it-operator-token-payara-server-0123456789";
    private static final Duration PROCESSING = Duration.ofSeconds(60);

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Path PAYARA_HOME = Path.of(System.getProperty("hookstile.it.payara-home"));
    private static final Path DIR = Path.of(System.getProperty("hookstile.it.dir"), "payara-server");
    private static final String BASE = "http://127.0.0.1:" + (PORT_BASE + 80) + "/";

    private static final Map<String, String> environment = new HashMap<>();
    /** An OpenTelemetry collector's trace endpoint: what the domain exports, each request's body as sent. */
    private static HttpServer collector;
    private static final List<byte[]> exported = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void installOnPayaraServer() throws Exception {
        deleteRecursively(DIR);
        Files.createDirectories(DIR);
        Path ear = earWithTestHandler();
        environment.putAll(hookstileSettings());
        collector = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        collector.createContext("/v1/traces", exchange -> {
            try (exchange) {
                exported.add(exchange.getRequestBody().readAllBytes());
                exchange.sendResponseHeaders(200, -1);
            }
        });
        collector.start();
        environment.put("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + collector.getAddress().getPort());
        environment.put("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf");
        environment.put("OTEL_BSP_SCHEDULE_DELAY", "200");
        // A domain left by an interrupted earlier run, if any.
        asadminIgnoringFailure("stop-domain", DOMAIN);
        asadminIgnoringFailure("delete-domain", DOMAIN);
        asadmin("create-domain", "--nopassword=true", "--portbase", String.valueOf(PORT_BASE), DOMAIN);
        asadmin("start-domain", DOMAIN);
        Map<String, String> script = new HashMap<>(environment);
        script.put("PAYARA_HOME", PAYARA_HOME.toString());
        script.put("ASADMIN_OPTIONS", "--port " + (PORT_BASE + 48));
        script.put("HOOKSTILE_EAR", ear.toString());
        script.put("HOOKSTILE_RAR", System.getProperty("hookstile.it.rar"));
        script.put("HOOKSTILE_BROKER_DIR", DIR.resolve("broker").toString());
        // First with a provider misspelt in a system property (which wins over the environment): refused, then right.
        String admin = String.valueOf(PORT_BASE + 48);
        asadmin("--port", admin, "create-system-properties", "hookstile.sources.pay.provider=strype");
        refusedDeploy = DomainCommands.runAllowingFailure(script, System.getProperty("hookstile.it.script"), "deploy");
        readyWhileRefused = send(HttpRequest.newBuilder(URI.create(BASE + "health/ready"))
                .timeout(Duration.ofSeconds(10)));
        asadmin("--port", admin, "delete-system-property", "hookstile.sources.pay.provider");
        run(script, System.getProperty("hookstile.it.script"), "deploy");
        awaitReady();
    }

    /** What {@code payara-server.sh deploy} answered with a provider misspelt, before the deployment that works. */
    private static DomainCommands.Ran refusedDeploy;
    /** {@code /health/ready} after that refusal. */
    private static HttpResponse<String> readyWhileRefused;

    @Test
    void aRefusedDeploymentLeavesTheInstanceNotReadyUntilADeploySucceeds() {
        assertEquals(503, readyWhileRefused.statusCode(), readyWhileRefused.body());
        assertTrue(readyWhileRefused.body().contains("\"name\":\"hookstile\",\"status\":\"DOWN\""),
                readyWhileRefused.body());
        // The deployment that worked took the placeholder away: awaitReady saw 200 before any test ran.
    }

    @Test
    void aMisspeltProviderEndsTheDeployScriptWithStatus2AndALineNamingTheSetting() {
        assertEquals(2, refusedDeploy.status(), refusedDeploy.output());
        assertTrue(refusedDeploy.output().contains("hookstile-payara-server: HOOKSTILE_SOURCES_PAY_PROVIDER"
                + " (hookstile.sources.pay.provider): unknown provider 'strype' (github, hmac, meta, shopify, slack,"
                + " standard-webhooks, stripe, svix, twilio)"), refusedDeploy.output());
        assertTrue(refusedDeploy.output().contains("hookstile-payara-server: not deployed: 1 setting(s) to fix"),
                refusedDeploy.output());
    }

    @AfterAll
    static void removeFromPayaraServer() throws Exception {
        try {
            Map<String, String> script = new HashMap<>(environment);
            script.put("PAYARA_HOME", PAYARA_HOME.toString());
            script.put("ASADMIN_OPTIONS", "--port " + (PORT_BASE + 48));
            run(script, System.getProperty("hookstile.it.script"), "undeploy");
        } finally {
            // Not ignored: a domain that does not stop would be a server left running after the build.
            asadmin("stop-domain", DOMAIN);
            asadmin("delete-domain", DOMAIN);
            if (collector != null) {
                collector.stop(0);
            }
        }
    }

    /**
     * The EAR exports spans through Payara Server's own OpenTelemetry SDK once an OTLP endpoint is set, as the WAR on
     * Payara Micro does (TracingIT follows a whole trace there): here, that a try's span of this event in the
     * sender's trace reaches the collector.
     */
    @Test
    void anEventsSpansInTheSendersTraceAreExportedWithAnOtlpEndpointSet() {
        String id = "gh-" + UUID.randomUUID();
        String traceId = UUID.randomUUID().toString().replace("-", "");
        String body = "{\"action\":\"opened\",\"issue\":{\"number\":" + System.nanoTime() + "}}";

        HttpResponse<String> answer = send(github(id, body)
                .header("traceparent", "00-" + traceId + "-00f067aa0ba902b7-01"));

        assertEquals(202, answer.statusCode(), answer.body());
        awaitEvent("gh", id, e -> "completed".equals(e.getString("status")));
        byte[] wantedTrace = HexFormat.of().parseHex(traceId);
        byte[] wantedId = id.getBytes(StandardCharsets.UTF_8);
        long deadline = System.nanoTime() + PROCESSING.toNanos();
        while (exported.stream().noneMatch(request -> contains(request, wantedTrace) && contains(request, wantedId)
                && contains(request, "try gh".getBytes(StandardCharsets.UTF_8)))) {
            if (System.nanoTime() > deadline) {
                fail("no span of " + id + " in trace " + traceId + " among " + exported.size() + " exports");
            }
            sleep(Duration.ofMillis(200));
        }
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    @Test
    void githubEventIsAcceptedOnceAnsweredDuplicateAfterAndCompleted() {
        String id = "gh-" + UUID.randomUUID();
        String body = "{\"action\":\"opened\",\"issue\":{\"number\":" + System.nanoTime() + "}}";

        HttpResponse<String> first = send(github(id, body));
        HttpResponse<String> again = send(github(id, body));

        assertEquals(202, first.statusCode(), first.body());
        assertEquals("accepted", json(first.body()).getString("status"));
        assertEquals(200, again.statusCode(), again.body());
        assertEquals("duplicate", json(again.body()).getString("status"));
        JsonObject event = awaitEvent("gh", id, e -> "completed".equals(e.getString("status")));
        assertEquals(1, event.getInt("attempts"));
        assertEquals("issues", event.getString("type"));
    }

    /** A handler jar's migration, in {@code lib/}, applied at deployment after Hookstile's, with its own history. */
    @Test
    void theHandlerJarsMigrationInLibCreatedItsTable() throws SQLException {
        try (var connection = DriverManager.getConnection(environment.get("HOOKSTILE_DB_URL"),
                environment.get("HOOKSTILE_DB_USER"), environment.getOrDefault("HOOKSTILE_DB_PASSWORD", ""));
             var statement = connection.createStatement()) {
            var versions = new ArrayList<String>();
            try (var history = statement.executeQuery("SELECT script FROM handler_schema_history"
                    + " WHERE success AND version <> '0' ORDER BY installed_rank")) {
                while (history.next()) {
                    versions.add(history.getString(1));
                }
            }
            assertEquals(List.of("V1__smoke_ledger.sql"), versions);
            try (var rows = statement.executeQuery("SELECT count(*) FROM smoke_ledger")) {
                rows.next();
                assertEquals(0, rows.getLong(1));
            }
        }
    }

    /**
     * At {@code /} Payara registers its own metrics servlet into the application at {@code /metrics/*}: the scrape at
     * {@code /metrics} is Hookstile's with Payara's JVM metrics included, and nothing is served beside it.
     */
    @Test
    void metricsAreOneScrapeWithTheJvmsAndPayarasOwnPathAnswers404() {
        HttpResponse<String> scrape = send(HttpRequest.newBuilder(URI.create(BASE + "metrics")).GET());
        assertEquals(200, scrape.statusCode(), scrape.body());
        assertTrue(scrape.body().contains("\nhookstile_events_accepted_total{source=\"gh\"} "), scrape.body());
        assertTrue(scrape.body().contains("# TYPE hookstile_ingest_ack_seconds histogram"), scrape.body());
        assertTrue(scrape.body().lines().anyMatch(line -> line.startsWith("memory_usedHeap_bytes{")),
                "the JVM's metrics, from Payara's servlet: " + scrape.body());
        for (String path : List.of("metrics/", "metrics/base")) {
            HttpResponse<String> beside = send(HttpRequest.newBuilder(URI.create(BASE + path)).GET());
            assertEquals(404, beside.statusCode(), path + ": " + beside.body());
        }
    }

    /**
     * The console in this packaging too, in a real Chromium: the page and its modules (the application's own files
     * and the WebJars inside the web module) load under the strict policy, the admin token signs in, the overview
     * shows the source that just received an event, and signing out ends the session.
     */
    @Test
    void theConsoleSignsInShowsTheOverviewAndSignsOutInChromium() throws IOException {
        send(github("gh-console-" + UUID.randomUUID(), "{\"zen\":\"console\"}"));
        ChromeOptions options = new ChromeOptions();
        options.setBinary("/usr/bin/chromium");
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--window-size=1280,1000");
        options.setCapability("goog:loggingPrefs", Map.of("browser", "ALL"));
        ChromeDriver browser = new ChromeDriver(options);
        try {
            WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
            browser.get(BASE + "console/");
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("admin-token"))).sendKeys(ADMIN_TOKEN);
            browser.findElement(By.xpath("//button[normalize-space()='Sign in']")).click();
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.xpath("//h1[normalize-space()='Overview']")));
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.xpath("//table//a[normalize-space()='gh']")));
            Cookie session = browser.manage().getCookieNamed("hookstile_session");
            assertTrue(session != null && session.isHttpOnly(), "an HttpOnly session cookie: " + session);

            browser.findElement(By.xpath("//button[normalize-space()='Sign out']")).click();
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("admin-token")));
            HttpResponse<String> afterSignOut = send(HttpRequest.newBuilder(URI.create(BASE + "api/overview"))
                    .timeout(Duration.ofSeconds(30))
                    .header("Cookie", "hookstile_session=" + session.getValue()));
            assertEquals(401, afterSignOut.statusCode(), "the signed-out cookie opens nothing");
            List<String> problems = browser.manage().logs().get("browser").getAll().stream()
                    .filter(entry -> entry.getLevel().intValue() >= java.util.logging.Level.SEVERE.intValue())
                    .map(LogEntry::getMessage)
                    // The page's own sign-in check before signing in, and the sign-out's, answer 401 by design.
                    .filter(message -> !message.contains("401"))
                    .toList();
            assertEquals(List.of(), problems, "no script error and no policy violation in the console");
        } finally {
            Path screenshots = Path.of(System.getProperty("hookstile.it.screenshots"));
            Files.createDirectories(screenshots);
            Files.write(screenshots.resolve("PayaraServerIT.console.png"), browser.getScreenshotAs(OutputType.BYTES));
            browser.quit();
        }
    }

    @Test
    void stripeEventIsCompleted() {
        String id = "evt_" + UUID.randomUUID().toString().replace("-", "");
        String body = "{\"id\":\"" + id + "\",\"object\":\"event\",\"type\":\"invoice.paid\","
                + "\"data\":{\"object\":{\"id\":\"in_1\"}}}";

        HttpResponse<String> response = send(stripe(body));

        assertEquals(202, response.statusCode(), response.body());
        JsonObject event = awaitEvent("pay", id, e -> "completed".equals(e.getString("status")));
        assertEquals("invoice.paid", event.getString("type"));
    }

    /**
     * An event with an order key goes through its key's ordered queue, whose consumer the EJB module's
     * {@code META-INF/ejb-jar.xml} deploys (the class is the event queue's): completed only if the EAR deployed it.
     */
    @Test
    void anEventWithAnOrderKeyIsCompletedThroughItsOrderedQueue() {
        String id = "evt_" + UUID.randomUUID().toString().replace("-", "");
        String body = "{\"id\":\"" + id + "\",\"object\":\"event\",\"type\":\"invoice.paid\","
                + "\"data\":{\"object\":{\"id\":\"in_2\",\"customer\":\"cus_" + id + "\"}}}";

        HttpResponse<String> response = send(stripe(body));

        assertEquals(202, response.statusCode(), response.body());
        JsonObject event = awaitEvent("pay", id, e -> "completed".equals(e.getString("status")));
        assertEquals("invoice.paid", event.getString("type"));
    }

    /**
     * Watched while their tries land, the events never show a status or an attempt count that their history does
     * not hold yet. (They did, about one run in five: the detail's lazy payload, loaded after the history, read the
     * row a second time.)
     */
    @Test
    void transientHandlerFailureIsRetriedUntilTheEventCompletes() throws Exception {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            String id = "flaky-" + UUID.randomUUID();
            ids.add(id);
            // A body of its own each: GitHub sources deduplicate bodies by default (the delivery id is unsigned).
            assertEquals(202, send(github(id, "{\"action\":\"flaky\",\"id\":\"" + id + "\"}")).statusCode());
        }
        List<String> inconsistent = new CopyOnWriteArrayList<>();
        Map<String, JsonObject> completed = new ConcurrentHashMap<>();
        long deadline = System.nanoTime() + PROCESSING.toNanos();
        ExecutorService watchers = Executors.newFixedThreadPool(3);
        try {
            List<Future<?>> watching = new ArrayList<>();
            for (int w = 0; w < 3; w++) {
                watching.add(watchers.submit(() -> {
                    while (completed.size() < ids.size() && System.nanoTime() < deadline) {
                        for (String id : ids) {
                            HttpResponse<String> response = send(HttpRequest.newBuilder(
                                    URI.create(BASE + "api/events/gh/" + id)).timeout(Duration.ofSeconds(30))
                                    .header("Authorization", "Bearer " + ADMIN_TOKEN));
                            if (response.statusCode() != 200) {
                                continue;
                            }
                            JsonObject event = json(response.body());
                            JsonArray history = event.getJsonArray("history");
                            boolean done = "completed".equals(event.getString("status"));
                            if (history.size() < event.getInt("attempts") || done && !history.getJsonObject(
                                    history.size() - 1).getString("outcome").equals("completed")) {
                                inconsistent.add(event.toString());
                            }
                            if (done) {
                                completed.put(id, event);
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> watcher : watching) {
                watcher.get();
            }
        } finally {
            watchers.shutdownNow();
        }
        assertEquals(List.of(), inconsistent);
        assertEquals(ids.size(), completed.size(), "completed within " + PROCESSING.toSeconds() + " s");
        for (JsonObject event : completed.values()) {
            assertEquals(2, event.getInt("attempts"), event.toString());
            JsonArray history = event.getJsonArray("history");
            assertEquals("retrying", history.getJsonObject(0).getString("outcome"), history.toString());
            assertEquals("transient", history.getJsonObject(0).getString("failure"), history.toString());
            assertEquals("completed", history.getJsonObject(1).getString("outcome"), history.toString());
        }
    }

    // --- the server --------------------------------------------------------------------------------------------

    private static Map<String, String> hookstileSettings() throws SQLException {
        var settings = new HashMap<String, String>();
        settings.put("HOOKSTILE_SOURCES", "gh,pay");
        settings.put("HOOKSTILE_SOURCES_GH_PROVIDER", "github");
        settings.put("HOOKSTILE_SOURCES_GH_SECRETS", GITHUB_SECRET);
        settings.put("HOOKSTILE_SOURCES_PAY_PROVIDER", "stripe");
        settings.put("HOOKSTILE_SOURCES_PAY_SECRETS", STRIPE_SECRET);
        settings.put("HOOKSTILE_SOURCES_PAY_ORDER_KEY", "/data/object/customer");
        settings.put("HOOKSTILE_ADMIN_TOKEN", ADMIN_TOKEN);
        settings.put("HOOKSTILE_DATA_DIR", DIR.resolve("data").toString());
        settings.put("HOOKSTILE_PROCESSING_REDELIVERY_DELAY_MS", "200");
        String url = System.getenv().getOrDefault("HOOKSTILE_TEST_DB_URL", "jdbc:postgresql://127.0.0.1:5432/test");
        String user = System.getenv().getOrDefault("HOOKSTILE_TEST_DB_USER", "postgres");
        String password = System.getenv().getOrDefault("HOOKSTILE_TEST_DB_PASSWORD", "");
        // A schema of its own: the database may hold other runs' events.
        String schema = "payara_server_it_" + Long.toHexString(System.nanoTime());
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

    /** The built EAR with the test handler's jar added to {@code lib/}, as a handler author adds theirs. */
    private static Path earWithTestHandler() throws IOException {
        Path classes = Path.of("target", "test-classes");
        Path ear = DIR.resolve("hookstile-with-handler.ear");
        try (var in = new ZipInputStream(Files.newInputStream(Path.of(System.getProperty("hookstile.it.ear"))));
             var out = new ZipOutputStream(Files.newOutputStream(ear))) {
            for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
                out.putNextEntry(new ZipEntry(entry.getName()));
                in.transferTo(out);
                out.closeEntry();
            }
            out.putNextEntry(new ZipEntry("lib/smoke-handler.jar"));
            var jar = new java.io.ByteArrayOutputStream();
            try (var handler = new ZipOutputStream(jar)) {
                add(handler, "META-INF/beans.xml", classes.resolve("smoke/META-INF/beans.xml"));
                // With its directories' entries, as Maven's jar plugin writes a jar: a class loader finds the
                // migrations' directory only through its entry.
                for (String directory : List.of("db/", "db/handler-migration/")) {
                    handler.putNextEntry(new ZipEntry(directory));
                    handler.closeEntry();
                }
                String migration = "db/handler-migration/V1__smoke_ledger.sql";
                add(handler, migration, classes.resolve("smoke/" + migration));
                String type = "dev/hookstile/ear/smoke/FlakyHandler.class";
                add(handler, type, classes.resolve(type));
            }
            out.write(jar.toByteArray());
            out.closeEntry();
        }
        return ear;
    }

    private static void add(ZipOutputStream zip, String name, Path file) throws IOException {
        zip.putNextEntry(new ZipEntry(name));
        Files.copy(file, zip);
        zip.closeEntry();
    }

    private static void awaitReady() {
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
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            sleep(Duration.ofMillis(500));
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

    // --- the senders and the operator -------------------------------------------------------------------------

    private static HttpRequest.Builder github(String deliveryId, String body) {
        return post("gh", body)
                .header("X-GitHub-Delivery", deliveryId)
                .header("X-GitHub-Event", "issues")
                .header("X-Hub-Signature-256", "sha256=" + HexFormat.of().formatHex(hmac(GITHUB_SECRET, body)));
    }

    private static HttpRequest.Builder stripe(String body) {
        long t = Instant.now().getEpochSecond();
        return post("pay", body).header("Stripe-Signature",
                "t=" + t + ",v1=" + HexFormat.of().formatHex(hmac(STRIPE_SECRET, t + "." + body)));
    }

    private static HttpRequest.Builder post(String source, String body) {
        return HttpRequest.newBuilder(URI.create(BASE + "webhooks/" + source))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    private static JsonObject awaitEvent(String source, String id, Predicate<JsonObject> condition) {
        long deadline = System.nanoTime() + PROCESSING.toNanos();
        String last;
        do {
            HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(BASE + "api/events/" + source + "/" + id))
                    .timeout(Duration.ofSeconds(30))
                    .header("Authorization", "Bearer " + ADMIN_TOKEN));
            last = response.statusCode() + " " + response.body();
            if (response.statusCode() == 200) {
                JsonObject event = json(response.body());
                if (condition.test(event)) {
                    return event;
                }
            } else {
                assertTrue(response.statusCode() == 404, "the operator API answered " + last);
            }
            sleep(Duration.ofMillis(200));
        } while (System.nanoTime() < deadline);
        return fail("after " + PROCESSING.toSeconds() + " s " + source + "/" + id + " is " + last);
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static byte[] hmac(String secret, String data) {
        return DomainCommands.hmacSha256(secret, data);
    }

    private static JsonObject json(String text) {
        try (var reader = Json.createReader(new StringReader(text))) {
            return reader.readObject();
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        DomainCommands.deleteRecursively(dir);
    }
}
