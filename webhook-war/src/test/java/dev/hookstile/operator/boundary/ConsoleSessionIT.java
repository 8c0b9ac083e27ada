package dev.hookstile.operator.boundary;

import dev.hookstile.it.DeployedHookstile;
import dev.hookstile.it.Webhooks;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;

import static dev.hookstile.it.Webhooks.completed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The console's sign-in on the real server, as a browser meets it: the admin token traded for an {@code HttpOnly},
 * {@code SameSite=Strict} cookie that opens {@code /api} for reading, state-changing calls refused without the
 * session's anti-forgery token or from another site's page, a wrong token counted like a wrong bearer token, a
 * sign-in another site's page can send refused without counting, a stalled sign-in body cut off at the deadline,
 * sign-out ending the session on the server, and the security headers on the console and the API.
 */
class ConsoleSessionIT extends DeployedHookstile {

    private static final String TOKEN = System.getenv("HOOKSTILE_ADMIN_TOKEN");
    private static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; font-src 'self'; manifest-src 'self'; base-uri 'none'; "
            + "form-action 'self'; frame-ancestors 'none'";

    /** A signed-in browser: its cookie and the anti-forgery token its page keeps in memory. */
    private record SignedIn(String cookie, String csrfToken, HttpResponse<String> answer) {
    }

    @BeforeEach
    void operator() {
        assertNotNull(TOKEN, "HOOKSTILE_ADMIN_TOKEN must be set for the integration tests (webhook-war/pom.xml)");
    }

    @Test
    void theRightTokenGivesAnHttpOnlySameSiteStrictCookieThatOpensTheApiForReading() {
        SignedIn browser = signIn();

        String setCookie = browser.answer().headers().firstValue("Set-Cookie").orElseThrow();
        assertTrue(setCookie.startsWith("hookstile_session="), setCookie);
        assertTrue(setCookie.contains("; HttpOnly"), setCookie);
        assertTrue(setCookie.contains("; SameSite=Strict"), setCookie);
        assertTrue(setCookie.contains("; Path=/"), setCookie);
        assertFalse(setCookie.contains("Max-Age") || setCookie.contains("Expires"), "a browser-session cookie");
        assertFalse(setCookie.contains("Secure"), "plain http here: " + setCookie);
        assertTrue(browser.cookie().matches("hookstile_session=[A-Za-z0-9_-]{43}"), "256 bits, base64url");
        JsonObject session = Webhooks.json(browser.answer().body());
        assertTrue(browser.csrfToken().matches("[A-Za-z0-9_-]{43}"), browser.csrfToken());
        assertEquals(1800, session.getInt("idleTimeoutSeconds"));
        assertApiHeaders(browser.answer());

        HttpResponse<String> events = webhooks.send(api("api/events?limit=1").header("Cookie", browser.cookie()));
        assertEquals(200, events.statusCode(), events.body());
        HttpResponse<String> again = webhooks.send(api("api/session").header("Cookie", browser.cookie()));
        assertEquals(200, again.statusCode(), again.body());
        assertEquals(browser.csrfToken(), Webhooks.json(again.body()).getString("csrfToken"),
                "a reloaded page gets its anti-forgery token again");
        SignedIn secure = signIn("https");
        String behindTls = secure.answer().headers().firstValue("Set-Cookie").orElseThrow();
        assertTrue(behindTls.startsWith("__Host-hookstile_session=") && behindTls.endsWith("; Secure"),
                "behind a proxy that ended TLS: " + behindTls);
        assertFalse(behindTls.contains("Domain"), behindTls);
        assertEquals(200, webhooks.send(api("api/events?limit=1").header("Cookie", secure.cookie())
                .header("X-Forwarded-Proto", "https")).statusCode());
        assertEquals(401, webhooks.send(api("api/events?limit=1").header("X-Forwarded-Proto", "https")
                .header("Cookie", secure.cookie().replace("__Host-", ""))).statusCode(),
                "over TLS only the prefixed name is read: a plain one may have been planted by a sibling host");
    }

    @Test
    void aSignInThatAnotherSitesPageCanSendIsRefusedUncountedAndLocksNobodyOut() {
        long guesses = failures("invalid-token");
        long foreign = failures("foreign-origin");
        long notJson = failures("unsupported-media-type");
        String wrong = "{\"token\":\"wrong-" + UUID.randomUUID() + "\"}";

        for (int i = 0; i < 12; i++) {
            // fetch(url, {method: 'POST', mode: 'no-cors', body}) from another site: text/plain, its own Origin.
            HttpResponse<String> noCors = webhooks.send(post("api/session").header("Origin", "https://evil.example")
                    .header("Content-Type", "text/plain;charset=UTF-8")
                    .POST(HttpRequest.BodyPublishers.ofString(wrong)));
            assertEquals(403, noCors.statusCode(), noCors.body());
            assertEquals("urn:hookstile:problem:foreign-origin", Webhooks.json(noCors.body()).getString("type"));
            HttpResponse<String> plain = webhooks.send(post("api/session").header("Origin", origin())
                    .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString(wrong)));
            assertEquals(415, plain.statusCode(), plain.body());
            assertEquals("application/problem+json", contentType(plain));
            assertEquals("urn:hookstile:problem:unsupported-media-type", Webhooks.json(plain.body()).getString("type"));
            HttpResponse<String> noOrigin = webhooks.send(post("api/session")
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(wrong)));
            assertEquals(403, noOrigin.statusCode(), noOrigin.body());
        }

        HttpResponse<String> operator = webhooks.send(api("api/sources").header("Authorization", "Bearer " + TOKEN));
        assertEquals(200, operator.statusCode(), "the operator is not locked out: " + operator.body());
        assertEquals(guesses, failures("invalid-token"), "no guess counted");
        assertEquals(foreign + 24, failures("foreign-origin"));
        assertEquals(notJson + 12, failures("unsupported-media-type"));
        signIn();
    }

    @Test
    void aSignInWhoseBodyStallsIsCutOffAtTheBodyDeadline() throws Exception {
        URI base = URI.create(webhooks.base());
        try (var socket = new java.net.Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(20_000);
            String authority = base.getHost() + ":" + base.getPort();
            socket.getOutputStream().write(("POST " + base.getPath() + "api/session HTTP/1.1\r\nHost: " + authority
                    + "\r\nOrigin: http://" + authority + "\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 4096\r\n\r\n{\"tok").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            long sent = System.nanoTime();
            String status = new java.io.BufferedReader(new java.io.InputStreamReader(socket.getInputStream(),
                    java.nio.charset.StandardCharsets.US_ASCII)).readLine();
            long waited = Duration.ofNanos(System.nanoTime() - sent).toMillis();

            assertNotNull(status, "answered, not just closed");
            assertTrue(status.startsWith("HTTP/1.1 408"), status);
            assertTrue(waited < 10_000, "cut off at the ITs' 3 s body deadline, after " + waited + " ms");
        }
    }

    @Test
    void withTheCookieAReplayNeedsTheAntiForgeryTokenAndAPageOfThisSite() {
        String delivery = UUID.randomUUID().toString();
        assertEquals(202, webhooks.send(webhooks.github(delivery, "push", "{\"ref\":\"main\"}",
                Webhooks.GITHUB_SECRET)).statusCode());
        webhooks.awaitRecorded("gh", delivery, completed(), Duration.ofSeconds(30));
        SignedIn browser = signIn();
        String replay = "api/events/gh/" + delivery + "/replay";

        assertCsrfRefused(webhooks.send(post(replay).header("Cookie", browser.cookie())));
        assertCsrfRefused(webhooks.send(post(replay).header("Cookie", browser.cookie())
                .header("X-CSRF-Token", signIn().csrfToken())));
        assertCsrfRefused(webhooks.send(post(replay).header("Cookie", browser.cookie())
                .header("X-CSRF-Token", browser.csrfToken()).header("Origin", "https://evil.example")));
        assertCsrfRefused(webhooks.send(api("api/events?limit=1").header("Cookie", browser.cookie())
                .header("Origin", "https://evil.example")));
        assertEquals(1, webhooks.recorded("gh", delivery).getInt("attempts"), "nothing replayed");

        HttpResponse<String> replayed = webhooks.send(post(replay).header("Cookie", browser.cookie())
                .header("X-CSRF-Token", browser.csrfToken()).header("Origin", origin()));
        assertEquals(202, replayed.statusCode(), replayed.body());
        webhooks.awaitRecorded("gh", delivery, state -> state.getInt("attempts") >= 2 && completed().test(state),
                Duration.ofSeconds(30));
    }

    @Test
    void aWrongTokenIs401CountedAsAnInvalidTokenAndOpensNothing() {
        long before = failures("invalid-token");
        String wrong = "wrong-" + UUID.randomUUID();

        HttpResponse<String> refused = webhooks.send(post("api/session")
                .header("Content-Type", "application/json").header("Origin", origin())
                .POST(HttpRequest.BodyPublishers.ofString("{\"token\":\"" + wrong + "\"}")));

        assertEquals(401, refused.statusCode(), refused.body());
        assertEquals("application/problem+json", contentType(refused));
        JsonObject problem = Webhooks.json(refused.body());
        assertEquals("urn:hookstile:problem:unauthorized", problem.getString("type"));
        assertTrue(problem.getString("detail").contains("admin token is wrong"), problem.getString("detail"));
        assertFalse(refused.body().contains(wrong));
        assertTrue(refused.headers().firstValue("Set-Cookie").isEmpty(), refused.headers().map().toString());
        assertEquals(before + 1, failures("invalid-token"));
        assertApiHeaders(refused);
        signIn(); // the right token forgives the address, for the tests after this one
    }

    @Test
    void signOutEndsTheSessionOnTheServerSoTheOldCookieOpensNothing() {
        SignedIn browser = signIn();
        assertCsrfRefused(webhooks.send(api("api/session").header("Cookie", browser.cookie()).DELETE()));

        HttpResponse<String> signedOut = webhooks.send(api("api/session").header("Cookie", browser.cookie())
                .header("X-CSRF-Token", browser.csrfToken()).DELETE());

        assertEquals(204, signedOut.statusCode(), signedOut.body());
        String cleared = signedOut.headers().firstValue("Set-Cookie").orElseThrow();
        assertTrue(cleared.startsWith("hookstile_session=;") && cleared.contains("Max-Age=0"), cleared);
        HttpResponse<String> after = webhooks.send(api("api/events?limit=1").header("Cookie", browser.cookie()));
        assertEquals(401, after.statusCode(), after.body());
        assertTrue(after.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Bearer"));
        assertEquals(401, webhooks.send(api("api/session").header("Cookie", browser.cookie())).statusCode());
        signIn(); // forgive the address
    }

    @Test
    void askingWhetherSignedInWithoutACookieIs401AndNotAFailedAttempt() {
        long before = failures("missing-token");

        HttpResponse<String> answer = webhooks.send(api("api/session"));

        assertEquals(401, answer.statusCode(), answer.body());
        assertEquals("application/problem+json", contentType(answer));
        assertEquals(before, failures("missing-token"));
    }

    @Test
    void theConsoleMayNotBeFramedNorRunForeignScriptAndApiAnswersAreNotStored() {
        HttpResponse<String> bare = webhooks.send(api("console"));
        assertEquals(302, bare.statusCode(), bare.body());
        assertEquals(URI.create(webhooks.base()).getPath() + "console/",
                bare.headers().firstValue("Location").orElseThrow());

        for (String path : new String[] {"console/", "console/index.html", "webjars/none/0/x.js",
                "_static/none/0/x.js"}) {
            HttpResponse<String> page = webhooks.send(api(path));
            assertEquals(CSP, page.headers().firstValue("Content-Security-Policy").orElse(null), path);
            assertEquals("DENY", page.headers().firstValue("X-Frame-Options").orElse(null), path);
            assertEquals("nosniff", page.headers().firstValue("X-Content-Type-Options").orElse(null), path);
            assertEquals("no-referrer", page.headers().firstValue("Referrer-Policy").orElse(null), path);
        }

        assertApiHeaders(webhooks.send(api("api/sources")));
        assertApiHeaders(webhooks.send(api("api/sources").header("Authorization", "Bearer " + TOKEN)));
    }

    private SignedIn signIn() {
        return signIn(null);
    }

    private SignedIn signIn(String forwardedProto) {
        // As the console's page posts it: JSON, and the browser adds the page's Origin.
        HttpRequest.Builder request = post("api/session").header("Content-Type", "application/json")
                .header("Origin", origin())
                .POST(HttpRequest.BodyPublishers.ofString("{\"token\":\"" + TOKEN + "\"}"));
        if (forwardedProto != null) {
            request.header("X-Forwarded-Proto", forwardedProto);
        }
        HttpResponse<String> answer = webhooks.send(request);
        assertEquals(201, answer.statusCode(), answer.body());
        String setCookie = answer.headers().firstValue("Set-Cookie").orElseThrow();
        return new SignedIn(setCookie.substring(0, setCookie.indexOf(';')),
                Webhooks.json(answer.body()).getString("csrfToken"), answer);
    }

    private String origin() {
        URI base = URI.create(webhooks.base());
        return base.getScheme() + "://" + base.getHost() + ":" + base.getPort();
    }

    private HttpRequest.Builder api(String path) {
        return HttpRequest.newBuilder(URI.create(webhooks.base() + path)).timeout(Duration.ofSeconds(30)).GET();
    }

    private HttpRequest.Builder post(String path) {
        return api(path).POST(HttpRequest.BodyPublishers.noBody());
    }

    /** {@code hookstile_operator_auth_failures_total{reason}} as the metrics endpoint shows it now. */
    private long failures(String reason) {
        HttpResponse<String> metrics = webhooks.get("metrics");
        assertEquals(200, metrics.statusCode(), metrics.body());
        return metrics.body().lines()
                .filter(l -> l.startsWith("hookstile_operator_auth_failures_total{")
                        && l.contains("reason=\"" + reason + "\""))
                .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .findFirst().orElseThrow(() -> new AssertionError("no failure counter for " + reason));
    }

    private static void assertCsrfRefused(HttpResponse<String> response) {
        assertEquals(403, response.statusCode(), response.body());
        assertEquals("application/problem+json", contentType(response));
        assertEquals("urn:hookstile:problem:csrf-token-invalid", Webhooks.json(response.body()).getString("type"));
    }

    private static void assertApiHeaders(HttpResponse<String> response) {
        assertEquals("no-store", response.headers().firstValue("Cache-Control").orElse(null),
                response.headers().map().toString());
        assertEquals("nosniff", response.headers().firstValue("X-Content-Type-Options").orElse(null));
        assertEquals("no-referrer", response.headers().firstValue("Referrer-Policy").orElse(null));
    }

    private static String contentType(HttpResponse<String> response) {
        return response.headers().firstValue("Content-Type").orElse("").replace(";charset=UTF-8", "");
    }
}
