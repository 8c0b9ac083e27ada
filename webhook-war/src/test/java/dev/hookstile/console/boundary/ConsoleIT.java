package dev.hookstile.console.boundary;

import com.sun.net.httpserver.HttpServer;
import dev.hookstile.it.Browser;
import dev.hookstile.it.DeployedHookstile;
import dev.hookstile.it.Webhooks;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

import static dev.hookstile.it.Webhooks.completed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The operator console in Chromium, on the real server, as an operator uses it: signing in and out, the event list
 * and its links, a hostile event shown as text, a dead event replayed, a bulk replay followed to its end, a
 * cross-site request refused, and what issue 23 asks "for people" (keyboard, time zones, dark scheme, an API that
 * cannot be reached). docs/console.md lists every test and shows the pages as they photograph them. One browser
 * serves the whole class (a Chromium start costs seconds on this machine);
 * each test starts signed out in a single blank tab, and ends with a screenshot in
 * {@code target/screenshots/ConsoleIT.<test>.png} and no error reported by the page (uncaught exceptions,
 * Content-Security-Policy violations, failed loads).
 */
class ConsoleIT extends DeployedHookstile {

    static final String TOKEN = System.getenv("HOOKSTILE_ADMIN_TOKEN");
    static final String SESSION_COOKIE = "hookstile_session";
    static final Duration PROCESSING = Duration.ofSeconds(60);

    private static Browser browser;

    /** Tells this test's events from every other test's in the shared database. */
    private final String run = UUID.randomUUID().toString().substring(0, 8);

    @AfterAll
    static void quit() {
        if (browser != null) {
            browser.close();
        }
    }

    @BeforeEach
    void begin() {
        // The application's URL is known only once Arquillian injected it: the one browser starts here.
        if (browser == null) {
            browser = Browser.open(webhooks.base());
        }
        browser.reset();
    }

    @AfterEach
    void end(TestInfo test) {
        if (browser != null) {
            browser.screenshot("ConsoleIT." + test.getTestMethod().orElseThrow().getName());
            browser.assertNoProblems();
        }
    }

    @Test
    void theRightTokenSignsInToTheOverviewWithAnHttpOnlyStrictSessionCookieAndNothingStored() {
        signIn();

        Cookie session = sessionCookie();
        assertTrue(session.isHttpOnly(), "the page's script cannot read the session");
        assertEquals("Strict", session.getSameSite(), "no other site's page can send it");
        assertEquals("/", session.getPath());
        assertTrue(browser.button("Sign out").isDisplayed());
        String stored = (String) browser.script(
                "return JSON.stringify(localStorage) + JSON.stringify(sessionStorage) + document.cookie;");
        assertFalse(stored.contains(TOKEN), "the admin token is kept nowhere: " + stored);
        assertFalse(stored.contains(session.getValue()), "nor the session: " + stored);
        assertFalse(browser.currentUrl().contains(TOKEN), browser.currentUrl());
    }

    @Test
    void aWrongTokenIsRefusedWithAVisibleMessageAndNoSession() {
        browser.expectStatus(401).console("");
        String wrong = "wrong-" + UUID.randomUUID();
        long failuresBefore = invalidTokenFailures();

        browser.type("Admin token", wrong).click("Sign in");

        browser.await("a message saying the token is wrong", d -> {
            String text = browser.bodyText().toLowerCase(Locale.ROOT);
            return text.contains("wrong") || text.contains("invalid") ? Boolean.TRUE : null;
        });
        assertTrue(browser.field("Admin token").isDisplayed(), "still on the sign-in form");
        assertTrue(browser.cookie(SESSION_COOKIE).isEmpty(), "no session for a wrong token");
        assertFalse(browser.bodyText().contains(wrong), "the wrong token is not echoed");
        assertEquals(failuresBefore + 1, invalidTokenFailures(), "counted like a wrong bearer token");
    }

    @Test
    void theEventListFiltersBySourceAndStatusAndALinkRestoresTheFilters() {
        String completedId = "ok-" + run;
        String deadId = "broken-" + run;
        String otherSource = "other-" + run;
        send("it", completedId, "console.list");
        send("it", deadId, "console.list");
        send("quiet", otherSource, "console.list");
        webhooks.awaitRecorded("it", completedId, completed(), PROCESSING);
        webhooks.awaitRecorded("it", deadId, status("dead"), PROCESSING);
        signIn();

        browser.link("Events").click();
        browser.heading("Events");
        browser.awaitText(completedId); // newest first: this test's events are on the first page
        browser.choose("Source", "it").choose("Status", "dead").click("Apply");

        browser.await("the filters in the URL", d -> browser.currentUrl().contains("source=it")
                && browser.currentUrl().contains("status=dead") ? Boolean.TRUE : null);
        browser.awaitText(deadId);
        browser.awaitNoText(completedId);
        assertFalse(browser.bodyText().contains(otherSource), "another source's event is not listed");
        String link = browser.currentUrl();

        browser.driver().navigate().back();
        browser.awaitText(completedId);
        assertEquals("", browser.valueOf("Status"), "back: the unfiltered list");
        browser.driver().navigate().forward();
        browser.awaitNoText(completedId);
        assertEquals("dead", browser.valueOf("Status"), "forward: filtered again");

        browser.inNewTab(link);
        browser.heading("Events");
        browser.awaitText(deadId);
        assertEquals("it", browser.valueOf("Source"), "the link restored the source filter");
        assertEquals("dead", browser.valueOf("Status"), "the link restored the status filter");
        assertFalse(browser.bodyText().contains(completedId));
        assertFalse(browser.bodyText().contains(otherSource));
    }

    @Test
    void aLinkOpenedSignedOutShowsItsViewOnceSignedIn() {
        String deadId = "broken-" + run;
        send("it", deadId, "console.link");
        webhooks.awaitRecorded("it", deadId, status("dead"), PROCESSING);

        browser.console("#/events?source=it&status=dead");
        browser.type("Admin token", TOKEN).click("Sign in");

        browser.heading("Events");
        browser.awaitText(deadId);
        assertEquals("it", browser.valueOf("Source"));
        assertEquals("dead", browser.valueOf("Status"));
    }

    @Test
    void anOperatorSignsInAndMovesAroundWithTheKeyboardAloneSeeingWhereTheFocusIs() {
        browser.console("");
        WebElement token = browser.field("Admin token");
        assertEquals(token, browser.driver().switchTo().activeElement(), "the token field has the focus at once");

        token.sendKeys(TOKEN, Keys.TAB);
        WebElement focused = browser.driver().switchTo().activeElement();
        assertEquals("Sign in", focused.getText().trim(), "Tab reaches the button");
        assertFocusVisible(focused);
        focused.sendKeys(Keys.ENTER);
        browser.heading("Overview");

        // Tab through the header to the Events link and follow it with Enter.
        WebElement events = browser.link("Events");
        for (int i = 0; i < 20 && !events.equals(browser.driver().switchTo().activeElement()); i++) {
            browser.driver().switchTo().activeElement().sendKeys(Keys.TAB);
        }
        assertEquals(events, browser.driver().switchTo().activeElement(), "Tab reaches the Events link");
        assertFocusVisible(events);
        events.sendKeys(Keys.ENTER);
        browser.heading("Events");
    }

    @Test
    void slashJumpsToFindEventByIdWhichOpensTheEvent() {
        String id = "find-" + run;
        send("it", id, "console.find");
        webhooks.awaitRecorded("it", id, completed(), PROCESSING);
        signIn();

        browser.driver().findElement(By.tagName("body")).sendKeys("/");
        WebElement find = browser.field("Find event by id");
        assertEquals(find, browser.driver().switchTo().activeElement(), "/ moved the focus to the search");
        find.sendKeys(id + org.openqa.selenium.Keys.ENTER);

        browser.await("the event found", d -> browser.currentUrl().contains("eventId=" + id) ? Boolean.TRUE : null);
        browser.link(id).click();
        browser.heading("Event");
        browser.awaitText("console.find");
    }

    @Test
    void timesAreShownInTheBrowsersZoneWithTheUtcInstantOnHover() {
        String id = "zone-" + run;
        send("it", id, "console.zone");
        webhooks.awaitRecorded("it", id, completed(), PROCESSING);
        // Half an hour off any whole-hour zone, so that a time shown in UTC cannot pass for it.
        browser.driver().executeCdpCommand("Emulation.setTimezoneOverride", Map.of("timezoneId", "Asia/Kolkata"));
        try {
            signIn();
            browser.console("#/events/it/" + id);
            browser.heading("Event");
            WebElement received = browser.await("the receipt time", d -> d.findElements(By.xpath(
                    "//*[normalize-space(.)='Received at']/following-sibling::*[1]//time")).stream().findFirst()
                    .orElse(null));

            Instant at = Instant.parse(received.getDomAttribute("datetime"));
            String local = DateTimeFormatter.ofPattern("h:mm:ss", Locale.US)
                    .format(at.atZone(ZoneId.of("Asia/Kolkata")));
            assertTrue(received.getText().contains(local), "shown in the browser's zone, " + local + ": "
                    + received.getText());
            assertTrue(received.getDomAttribute("title").startsWith(at.toString().substring(0, 19)),
                    "the UTC instant on hover: " + received.getDomAttribute("title"));
            assertTrue(received.getDomAttribute("title").contains("UTC"), received.getDomAttribute("title"));
        } finally {
            browser.driver().executeCdpCommand("Emulation.setTimezoneOverride", Map.of("timezoneId", ""));
        }
    }

    @Test
    void theConsoleFollowsTheSystemsDarkScheme() {
        signIn();
        String light = (String) browser.script("return getComputedStyle(document.body).backgroundColor;");
        browser.driver().executeCdpCommand("Emulation.setEmulatedMedia", Map.of("features",
                List.of(Map.of("name", "prefers-color-scheme", "value", "dark"))));
        try {
            browser.await("a dark background", d -> luminance((String) browser.script(
                    "return getComputedStyle(document.body).backgroundColor;")) < 0.3 ? Boolean.TRUE : null);
            assertTrue(luminance(light) > 0.7, "light by default: " + light);
            browser.await("the overview loaded, its chart drawn", d -> !browser.bodyText().contains("Loading")
                    && !d.findElements(By.tagName("canvas")).isEmpty() ? Boolean.TRUE : null);
            browser.screenshot("page-overview-dark");
        } finally {
            browser.driver().executeCdpCommand("Emulation.setEmulatedMedia", Map.of("features", List.of()));
        }
    }

    @Test
    void aHostileEventIsShownAsTextAndNothingInItRuns() {
        String id = "xss-" + run;
        String image = "<img src=x onerror=window.__xss=1>";
        String script = "</script><script>window.__xss=2</script>";
        String type = "xss-" + run + "\u202Eexe.txt<img src=x onerror=window.__xss=3>";
        String body = "{\"type\":" + json(type) + ",\"note\":" + json(image) + ",\"html\":" + json(script) + "}";
        assertEquals(202, webhooks.send(webhooks.standard("it", id, body)).statusCode());
        webhooks.awaitRecorded("it", id, completed(), PROCESSING);
        signIn();

        browser.console("#/events?source=it"); // newest first: this event leads
        browser.heading("Events");
        browser.awaitText(id);
        assertNothingRan("the event list");
        String typeShown = "xss-" + run + "\u27E8U+202E\u27E9exe.txt<img src=x onerror=window.__xss=3>";
        assertTrue(browser.bodyText().contains(typeShown),
                "the type as text, its direction override shown as a marker: " + browser.bodyText());
        browser.link(id).click();

        browser.heading("Event");
        browser.awaitText(image);
        browser.awaitText(script);
        assertNothingRan("the event's page");
        assertTrue(browser.bodyText().contains("U+202E"), "the override is shown, not obeyed");
        assertFalse(browser.bodyText().contains("\u202E"), "no raw override reaches the page's text");
    }

    /**
     * The event page shows what the server says (issue 38): the signing scheme in the words the source's description
     * gives (the configured HMAC's own settings, which no list in the console knew), the signature header withheld
     * and counted, never shown, and "Replay" offered because the event's answer says it is replayable.
     */
    @Test
    void anEventShowsTheSigningSchemeItsSourceDescribesAndNoWithheldHeader() {
        String id = "scheme-" + run;
        HttpResponse<String> sent = webhooks.send(webhooks.inhouse(
                "{\"meta\":{\"id\":\"" + id + "\",\"kind\":\"it.scheme\"}}"));
        assertEquals(202, sent.statusCode(), sent.body());
        webhooks.awaitRecorded("inhouse", id, state -> List.of("completed", "ignored", "dead")
                .contains(state.getString("status", "")), PROCESSING);
        HttpResponse<String> sources = webhooks.send(webhooks.operator("api/sources").GET());
        String scheme = Webhooks.json(sources.body()).getJsonArray("sources").stream()
                .map(jakarta.json.JsonValue::asJsonObject).filter(source -> "inhouse".equals(source.getString("name")))
                .findFirst().orElseThrow().getString("signingScheme");
        assertEquals("HMAC-SHA512 of the body, base64 (X-Signature, after \u201csha512=\u201d)", scheme);
        signIn();

        browser.console("#/events/inhouse/" + id);
        browser.heading("Event");
        browser.awaitText(scheme + "; verified on arrival.");
        browser.awaitText("1 header not shown");
        String headers = String.valueOf(browser.script(
                "return [...document.querySelectorAll('table.headers td')].map(td => td.textContent).join(' ');"));
        assertTrue(headers.contains("content-type"), "the other headers are shown: " + headers);
        assertFalse(headers.toLowerCase(Locale.ROOT).contains("x-signature"), headers);
        assertFalse(browser.bodyText().contains("[redacted]"), browser.bodyText());
        assertTrue(browser.button("Replay").isEnabled(), "the server says the event is replayable");
    }

    @Test
    void aRefusedDeliveryIsShownWithItsReasonAndTheFixAndNothingInItRuns() {
        String delivery = "refused-" + run;
        String image = "<img src=x onerror=window.__xss=4>";
        String body = "{\"note\":\"<img src=x onerror=window.__xss=5>\"}";
        assertEquals(401, webhooks.send(webhooks.github("ghshown", delivery, "ping", body, "not-the-secret")
                .header("X-Note", image)).statusCode());
        // The count is immediate, the example is written within seconds: the page shows what is written.
        webhooks.awaitRefusal("?source=ghshown", refusal -> delivery.equals(
                refusal.getJsonObject("headers").getString("x-github-delivery", "")));
        signIn();

        // The overview's rejected count of the source, last hour (the link's name says what it counts).
        browser.await("the ghshown source's refused count", d -> d.findElements(
                By.cssSelector("a[aria-label='Refused deliveries of ghshown']")).stream()
                .filter(WebElement::isDisplayed).findFirst().orElse(null)).click();
        browser.heading("Refused deliveries");
        assertTrue(browser.currentUrl().endsWith("#/refused?source=ghshown"), browser.currentUrl());
        browser.awaitText(delivery);
        browser.awaitText(image);
        browser.awaitText("was the secret rotated");
        // The source keeps refused bodies: shown when asked for, as text.
        browser.click("Show body");
        browser.awaitText(body);
        assertNothingRan("the refused deliveries");
        assertFalse(browser.bodyText().contains("not-the-secret"));

        browser.link("Refused").click();
        browser.heading("Refused deliveries");
        browser.awaitText("Invalid signature");
    }

    @Test
    void eventsAreFoundByASearchKeyWhoseHostileValueIsShownAsText() {
        String customer = "<img src=x onerror=window.__xss=6>" + run;
        String mine = "key-" + run;
        String theirs = "key-other-" + run;
        HttpResponse<String> sent = webhooks.send(webhooks.standard("it", mine,
                "{\"type\":\"console.key\",\"customer\":" + json(customer) + "}"));
        assertEquals(202, sent.statusCode(), sent.body());
        send("it", theirs, "console.key");
        webhooks.awaitRecorded("it", mine, completed(), PROCESSING);
        webhooks.awaitRecorded("it", theirs, completed(), PROCESSING);
        signIn();

        browser.link("Events").click();
        browser.heading("Events");
        browser.awaitText(theirs);
        browser.type("Search key", "customer:" + customer).click("Apply");

        browser.await("the key in the URL", d -> browser.currentUrl().contains("key=") ? Boolean.TRUE : null);
        browser.awaitText(mine);
        browser.awaitNoText(theirs);
        assertNothingRan("the events found by a key");
        assertEquals("customer:" + customer, browser.valueOf("Search key"), "the search stays in its field");

        browser.expectStatus(400).type("Search key", "nosuchkey:1").click("Apply");
        browser.awaitText("no source has a search key named 'nosuchkey'");
    }

    @Test
    void eventsAreFoundByAFragmentOfTheirBodyAndThePageSaysHowFarItLooked() {
        String status = "<img src=x onerror=window.__xss=7>" + run;
        String mine = "match-" + run;
        String theirs = "match-other-" + run;
        HttpResponse<String> sent = webhooks.send(webhooks.standard("it", mine,
                "{\"type\":\"console.match\",\"data\":{\"object\":{\"status\":" + json(status) + "}}}")
                .header("User-Agent", "console-ua-" + run));
        assertEquals(202, sent.statusCode(), sent.body());
        send("it", theirs, "console.match");
        webhooks.awaitRecorded("it", mine, completed(), PROCESSING);
        webhooks.awaitRecorded("it", theirs, completed(), PROCESSING);
        signIn();

        browser.link("Events").click();
        browser.heading("Events");
        browser.awaitText(theirs);
        browser.type("Body contains (JSON)", "{\"data\":{\"object\":{\"status\":" + json(status) + "}}}")
                .click("Apply");

        browser.await("the fragment in the URL", d -> browser.currentUrl().contains("match=") ? Boolean.TRUE : null);
        browser.awaitText(mine);
        browser.awaitNoText(theirs);
        browser.awaitText("Bodies and headers searched");
        assertNothingRan("the events found by a fragment of their body");

        // The same search selects a bulk replay, counted first: only the event whose body matches is processed again.
        browser.choose("Status", "completed").click("Apply");
        browser.await("the status in the URL", d -> browser.currentUrl().contains("status=completed")
                ? Boolean.TRUE : null);
        browser.awaitText(mine);
        browser.click("Replay all");
        WebElement dialog = browser.await("the replay's confirmation", d -> browser.driver()
                .findElements(By.xpath("//dialog[@open]")).stream().findFirst().orElse(null));
        browser.await("the count of events to queue", d -> dialog.getText().contains("1 event will be queued again")
                && dialog.getText().contains("whose body contains") ? Boolean.TRUE : null);
        assertNothingRan("the replay's confirmation, naming the fragment");
        browser.within(dialog).button("Confirm").click();
        assertEquals(2, webhooks.awaitRecorded("it", mine, state -> state.getInt("effects") == 2, PROCESSING)
                .getInt("effects"), "processed again, once, by the replay");
        assertEquals(1, webhooks.recorded("it", theirs).getInt("effects"), "the event whose body does not match is not");

        browser.link("Clear filters").click();
        browser.await("the filters cleared", d -> !browser.currentUrl().contains("match=") ? Boolean.TRUE : null);
        browser.type("Header (name:value)", "User-Agent:console-ua-" + run).click("Apply");
        browser.await("the header in the URL", d -> browser.currentUrl().contains("header=")
                && !browser.currentUrl().contains("match=") ? Boolean.TRUE : null);
        browser.awaitText(mine);
        browser.awaitNoText(theirs);
    }

    @Test
    void aDestinationIsPausedAndResumedFromTheForwardingsPageEachAfterAConfirmationAndTheOverviewShowsItPaused() {
        signIn();

        browser.link("Forwardings").click();
        browser.heading("Forwardings");
        browser.button("Pause the destination of fwdhold").click();
        WebElement pause = browser.await("the pause's confirmation", d -> browser.driver()
                .findElements(By.xpath("//dialog[@open]")).stream().findFirst().orElse(null));
        assertTrue(pause.getText().contains("held from now on"), pause.getText());
        browser.within(pause).button("Confirm").click();
        browser.awaitText("Paused: its forwardings are held.");
        assertTrue(destinationPaused("fwdhold"), "paused on the server");
        // The overview says so too, with what it holds, and leads back to it.
        browser.link("Overview").click();
        browser.heading("Overview");
        browser.awaitText("Paused destinations");
        browser.awaitText("held");
        browser.link("Forwardings").click();
        browser.heading("Forwardings");

        browser.button("Resume the destination of fwdhold").click();
        WebElement resume = browser.await("the resume's confirmation", d -> browser.driver()
                .findElements(By.xpath("//dialog[@open]")).stream().findFirst().orElse(null));
        browser.within(resume).button("Confirm").click();
        browser.awaitText("Resumed: what it held is sent, oldest first.");
        assertFalse(destinationPaused("fwdhold"), "sending again");
    }

    private boolean destinationPaused(String source) {
        HttpResponse<String> answer = webhooks.send(webhooks.operator("api/destinations").GET());
        assertEquals(200, answer.statusCode(), answer.body());
        return Webhooks.json(answer.body()).getJsonArray("destinations").getValuesAs(JsonObject.class)
                .stream().filter(d -> d.getString("source").equals(source)).findFirst().orElseThrow()
                .getBoolean("paused");
    }

    @Test
    void aDeadEventIsFoundOnTheDeadEventsPageReplayedAndSeenCompleted() {
        String id = "broken-" + run;
        send("it", id, "console.dead-" + run);
        webhooks.awaitRecorded("it", id, status("dead"), PROCESSING);
        fix("it", id);
        signIn();

        browser.link("Dead events").click();
        browser.heading("Dead events");
        browser.awaitText(id);
        browser.link(id).click();
        browser.heading("Event");
        browser.awaitText("Status dead");
        // A reload loses the page's memory, the anti-forgery token with it: the page must fetch it again.
        browser.driver().navigate().refresh();
        browser.heading("Event");
        browser.awaitText("Status dead");
        browser.click("Replay");
        browser.confirm("Confirm");

        browser.await("the event completed", Duration.ofSeconds(60),
                d -> browser.bodyText().contains("Status completed") ? Boolean.TRUE : null);
        JsonObject recorded = webhooks.recorded("it", id);
        assertEquals("completed", recorded.getString("status"));
        assertEquals(1, recorded.getInt("effects"), "processed once, by the replay");
    }

    @Test
    void replayAllFollowsABulkReplayTo100Percent() {
        String type = "console.bulk-" + run;
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            String id = "broken-" + run + "-" + i;
            send("it", id, type);
            ids.add(id);
        }
        for (String id : ids) {
            webhooks.awaitRecorded("it", id, status("dead"), PROCESSING);
            fix("it", id);
        }
        signIn();

        browser.link("Dead events").click();
        browser.heading("Dead events");
        browser.choose("Source", "it").type("Type (prefix)", type).click("Apply");
        browser.await("the filters in the URL", d -> browser.currentUrl().contains("type=") ? Boolean.TRUE : null);
        browser.awaitText(ids.get(0));
        // The first "Replay all" on the page is the one for the filters; each group below has its own.
        browser.click("Replay all");
        WebElement dialog = browser.await("the replay's confirmation", d -> browser.driver()
                .findElements(By.xpath("//dialog[@open]")).stream().findFirst().orElse(null));
        browser.await("the count of events to queue", d -> dialog.getText().contains("5 events") ? Boolean.TRUE : null);
        browser.within(dialog).button("Confirm").click();

        browser.await("the progress bar at 100 %", Duration.ofSeconds(60), d -> {
            List<WebElement> bars = browser.driver().findElements(By.tagName("progress"));
            return !bars.isEmpty() && "100".equals(bars.get(0).getDomProperty("value"))
                    && Pattern.compile("100\\s?%").matcher(browser.bodyText()).find() ? Boolean.TRUE : null;
        });
        for (String id : ids) {
            assertEquals(1, webhooks.awaitRecorded("it", id, completed(), PROCESSING).getInt("effects"), id);
        }
    }

    @Test
    void aDeadForwardingIsSentAgainFromTheForwardingsPage() throws Exception {
        String id = "fwdead-" + run;
        // The fwd source's destination (webhook-war/pom.xml): refuses with 400 until the test fixes it.
        AtomicBoolean accepting = new AtomicBoolean();
        AtomicInteger requests = new AtomicInteger();
        HttpServer destination = HttpServer.create(new InetSocketAddress("127.0.0.1", 18771), 0);
        destination.createContext("/hooks", exchange -> {
            exchange.getRequestBody().readAllBytes();
            requests.incrementAndGet();
            exchange.sendResponseHeaders(accepting.get() ? 204 : 400, -1);
            exchange.close();
        });
        destination.start();
        try {
            send("fwd", id, "invoice.paid");
            awaitForwarding(id, "dead");
            signIn();

            browser.link("Forwardings").click();
            browser.heading("Forwardings");
            browser.choose("Source", "fwd").choose("Status", "dead").click("Apply");
            Browser.Scope row = browser.region(id);
            assertTrue(row.text().contains("400"), "the destination's answer is shown: " + row.text());
            accepting.set(true);
            row.button("Replay").click();
            browser.confirm("Confirm");

            browser.awaitText("Pending again");
            awaitForwarding(id, "delivered");
            assertEquals(2, requests.get(), "refused once, then delivered by the replay");
            browser.console("#/forwardings?source=fwd");
            browser.heading("Forwardings");
            browser.await("the forwarding shown delivered", d -> browser.region(id).text().contains("delivered")
                    ? Boolean.TRUE : null);
        } finally {
            destination.stop(0);
        }
    }

    @Test
    void aCrossSitePostIsRefusedAndTheSessionCookieNeedsTheAntiForgeryHeader() throws Exception {
        String id = "broken-" + run;
        send("it", id, "console.csrf");
        webhooks.awaitRecorded("it", id, status("dead"), PROCESSING);
        signIn();
        String cookie = SESSION_COOKIE + "=" + sessionCookie().getValue();
        String replay = "api/events/it/" + id + "/replay";

        // Another site's page posts a form to the API in the operator's browser: SameSite=Strict keeps the cookie
        // home, so the request arrives with no credentials at all.
        HttpServer attacker = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        String target = webhooks.base() + replay;
        byte[] page = ("<!doctype html><title>Win a prize</title><link rel=icon href=\"data:,\">"
                + "<form method=post action=\"" + target + "\">"
                + "<input type=hidden name=x value=1><button>Claim</button></form>").getBytes(StandardCharsets.UTF_8);
        attacker.createContext("/", exchange -> {
            exchange.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
            exchange.sendResponseHeaders(200, page.length);
            exchange.getResponseBody().write(page);
            exchange.close();
        });
        attacker.start();
        try {
            // localhost and 127.0.0.1 are different sites to the browser.
            // 401 for the form's request; 404 for the favicon the browser then asks of the API's host.
            browser.expectStatus(401).expectStatus(404)
                    .inNewTab("http://localhost:" + attacker.getAddress().getPort() + "/");
            browser.click("Claim");
            browser.awaitText("401");
        } finally {
            attacker.stop(0);
        }
        assertEquals(1, webhooks.recorded("it", id).getInt("attempts"), "not replayed");

        // A same-site page (or a script) that has the cookie but not the anti-forgery token: 403, with or without
        // a foreign Origin.
        HttpResponse<String> noHeader = webhooks.send(api(replay).header("Cookie", cookie)
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertEquals(403, noHeader.statusCode(), noHeader.body());
        assertTrue(noHeader.body().contains("csrf-token-invalid"), noHeader.body());
        HttpResponse<String> foreign = webhooks.send(api(replay).header("Cookie", cookie)
                .header("Origin", "https://attacker.example").POST(HttpRequest.BodyPublishers.noBody()));
        assertEquals(403, foreign.statusCode(), foreign.body());
        HttpResponse<String> wrongToken = webhooks.send(api(replay).header("Cookie", cookie)
                .header("X-CSRF-Token", "forged-" + run).POST(HttpRequest.BodyPublishers.noBody()));
        assertEquals(403, wrongToken.statusCode(), wrongToken.body());
        assertEquals(1, webhooks.recorded("it", id).getInt("attempts"), "still not replayed");
        // The cookie itself was good: reading needs no token.
        assertEquals(200, webhooks.send(api("api/events/it/" + id).header("Cookie", cookie).GET()).statusCode());
    }

    @Test
    void aPageOfAnotherSiteThatPostsWrongSignInsCannotLockTheOperatorOut() throws Exception {
        long guesses = invalidTokenFailures();
        // What any page the operator visits can send without a CORS preflight: no-cors, text/plain, its own Origin.
        HttpServer attacker = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        byte[] page = ("<!doctype html><title>Win a prize</title><link rel=icon href=\"data:,\"><body>sending<script>"
                + "(async () => { for (let i = 0; i < 12; i++) {"
                + " await fetch(" + json(webhooks.base() + "api/session") + ", {method: 'POST', mode: 'no-cors',"
                + " body: JSON.stringify({token: 'wrong-' + i})}).catch(() => {}); }"
                + " document.body.textContent = 'sent all'; })();</script>").getBytes(StandardCharsets.UTF_8);
        attacker.createContext("/", exchange -> {
            exchange.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
            exchange.sendResponseHeaders(200, page.length);
            exchange.getResponseBody().write(page);
            exchange.close();
        });
        attacker.start();
        try {
            // localhost and 127.0.0.1 are different sites to the browser.
            browser.expectStatus(403).inNewTab("http://localhost:" + attacker.getAddress().getPort() + "/");
            browser.awaitText("sent all");
        } finally {
            attacker.stop(0);
        }

        assertEquals(guesses, invalidTokenFailures(), "none of the twelve counted as a guess");
        HttpResponse<String> bearer = webhooks.send(api("api/sources").header("Authorization", "Bearer " + TOKEN)
                .GET());
        assertEquals(200, bearer.statusCode(), "the operator's own calls are not made to wait: " + bearer.body());
        browser.reset();
        signIn();
        assertTrue(sessionCookie().isHttpOnly());
    }

    @Test
    void theConsolesPolicyBlocksAnInjectedInlineHandlerAndTheTestsNoticeIt() {
        signIn();

        // What a rendering bug would do with a hostile value: markup from data. The policy must stop it, and the
        // harness must see the violation (every other test relies on that to fail on one).
        browser.script("document.body.insertAdjacentHTML('beforeend',"
                + " '<img src=\"data:,\" onerror=\"window.__xss=4\">');"
                + "const s = document.createElement('script'); s.textContent = 'window.__xss=5';"
                + " document.body.append(s);");

        browser.await("the violations reported", d -> browser.problems().stream()
                .filter(p -> p.contains("Content Security Policy")).count() >= 2 ? Boolean.TRUE : null);
        assertEquals("undefined", browser.script("return typeof window.__xss;"), "neither ran");
        browser.forgetProblems();
    }

    @Test
    void anUnreachableApiShowsABannerNotABlankPageAndRetryRecovers() {
        String id = "offline-" + run;
        send("it", id, "console.offline");
        webhooks.awaitRecorded("it", id, completed(), PROCESSING);
        signIn();
        // Events once (it learns the source names), then Sources, settled: going back to Events offline makes no
        // call but the list's own.
        browser.link("Events").click();
        browser.heading("Events");
        browser.choose("Source", "it");
        browser.link("Sources").click();
        browser.heading("Sources");
        browser.awaitText("standard-webhooks");

        browser.driver().setNetworkConditions(offline());
        try {
            browser.link("Events").click();
            browser.awaitText("cannot be reached");
            browser.heading("Events");
            browser.screenshot("unreachable");
        } finally {
            browser.driver().deleteNetworkConditions();
        }
        browser.forgetProblems(); // the failed calls the test provoked
        browser.click("Retry");

        browser.awaitNoText("cannot be reached");
        browser.awaitText(id);
    }

    @Test
    void aFailingSourceListIsNotAskedForAgainAndAgain() {
        // Counts the console's calls for the source names; only /api/sources fails, as a proxy refusing it would.
        browser.driver().executeCdpCommand("Page.addScriptToEvaluateOnNewDocument", Map.of("source", """
                window.__sourceCalls = 0;
                const original = window.fetch;
                window.fetch = function (input, init) {
                    if (String(input && input.url || input).includes('/api/sources')) window.__sourceCalls++;
                    return original.apply(this, arguments);
                };"""));
        signIn();
        browser.driver().executeCdpCommand("Network.enable", Map.of());
        browser.driver().executeCdpCommand("Network.setBlockedURLs", Map.of("urls", List.of("*/api/sources*")));
        try {
            browser.console("#/events");
            browser.heading("Events");
            browser.awaitText("cannot be reached");
            long before = (Long) browser.script("return window.__sourceCalls;");
            long start = System.nanoTime();
            long calls;
            try {
                calls = browser.await("ten more calls", Duration.ofSeconds(2), d -> {
                    long n = (Long) browser.script("return window.__sourceCalls;") - before;
                    return n >= 10 ? n : null;
                });
            } catch (AssertionError expected) {
                calls = (Long) browser.script("return window.__sourceCalls;") - before;
            }
            long millis = Duration.ofNanos(System.nanoTime() - start).toMillis();
            assertTrue(calls < 10, "once the banner showed, the console asked for /api/sources " + calls
                    + " more times in " + millis + " ms while it failed, with no pause between tries");
        } finally {
            browser.driver().executeCdpCommand("Network.setBlockedURLs", Map.of("urls", List.of()));
            browser.driver().executeCdpCommand("Network.disable", Map.of());
            browser.forgetProblems();
        }
    }

    @Test
    void signingOutEndsTheSessionOnTheServer() {
        signIn();
        String cookie = SESSION_COOKIE + "=" + sessionCookie().getValue();
        assertEquals(200, webhooks.send(api("api/sources").header("Cookie", cookie).GET()).statusCode(),
                "the cookie opens the API while signed in");

        browser.click("Sign out");

        browser.field("Admin token");
        browser.awaitText("signed out");
        assertTrue(browser.cookie(SESSION_COOKIE).isEmpty(), "the browser dropped the cookie");
        HttpResponse<String> after = webhooks.send(api("api/sources").header("Cookie", cookie).GET());
        assertEquals(401, after.statusCode(), "the old cookie opens nothing: " + after.body());
        assertEquals(401, webhooks.send(api("api/session").header("Cookie", cookie).GET()).statusCode());
    }

    @Test
    void everyPageOpensFromTheNavigation() {
        String id = "tour-" + run;
        send("it", id, "console.tour");
        webhooks.awaitRecorded("it", id, completed(), PROCESSING);
        signIn();
        browser.await("the overview loaded, its chart drawn", d -> !browser.bodyText().contains("Loading")
                && !d.findElements(By.tagName("canvas")).isEmpty() ? Boolean.TRUE : null);
        browser.screenshot("page-overview");

        for (String page : List.of("Events", "Dead events", "Forwardings", "Sources")) {
            browser.link(page).click();
            browser.heading(page);
            browser.await("the page loaded", d -> browser.bodyText().contains("Loading") ? null : Boolean.TRUE);
            browser.screenshot("page-" + page.toLowerCase(Locale.ROOT).replace(' ', '-'));
        }
        // What Sources shows is what the API says now, not an earlier answer. Other test classes' events of the
        // source may still be moving (retries dying): a page that differs is loaded again until one matches.
        browser.await("the Sources page showing the API's counts for it", d -> {
            JsonObject counts = itEventCounts();
            String card = browser.region(webhooks.base() + "webhooks/it").text();
            boolean shown = card.contains("completed: " + counts.getInt("completed"))
                    && card.contains("dead: " + counts.getInt("dead"));
            if (shown && counts.equals(itEventCounts())) {
                return Boolean.TRUE;
            }
            d.navigate().refresh();
            browser.heading("Sources");
            return null;
        });

        browser.link("Events").click();
        browser.heading("Events");
        browser.link(id).click();
        browser.heading("Event");
        browser.awaitText("console.tour");
        browser.screenshot("page-event");
    }

    // ---- helpers ----

    /** Signs in from the start page with the admin token, as an operator does, and lands on the overview. */
    private void signIn() {
        browser.console("");
        browser.type("Admin token", TOKEN).click("Sign in");
        browser.heading("Overview");
    }

    private Cookie sessionCookie() {
        return browser.cookie(SESSION_COOKIE).orElseThrow(
                () -> new AssertionError("no " + SESSION_COOKIE + " cookie after signing in"));
    }

    private void assertNothingRan(String where) {
        assertEquals("undefined", browser.script("return typeof window.__xss;"), "a script ran on " + where);
        assertEquals(0L, browser.script("return document.querySelectorAll('img[src=\"x\"]').length;"),
                "no element was made from the payload on " + where);
        assertEquals(0L, browser.script("return [...document.scripts].filter(s => s.text.includes('__xss')).length;"),
                "no script element was made from the payload on " + where);
    }

    /** The API's counts of the {@code it} source's events by status. */
    private JsonObject itEventCounts() {
        HttpResponse<String> sources = webhooks.send(webhooks.operator("api/sources").GET());
        assertEquals(200, sources.statusCode(), sources.body());
        return Webhooks.json(sources.body()).getJsonArray("sources").stream()
                .map(jakarta.json.JsonValue::asJsonObject).filter(source -> "it".equals(source.getString("name")))
                .findFirst().orElseThrow().getJsonObject("events");
    }

    /** Waits until the API lists the event's forwarding with this status; answers it. */
    private JsonObject awaitForwarding(String eventId, String status) {
        long deadline = System.nanoTime() + PROCESSING.toNanos();
        JsonObject last = null;
        while (System.nanoTime() < deadline) {
            HttpResponse<String> page = webhooks.send(webhooks.operator("api/forwardings?source=fwd&limit=100").GET());
            assertEquals(200, page.statusCode(), page.body());
            last = Webhooks.json(page.body()).getJsonArray("forwardings").stream()
                    .map(jakarta.json.JsonValue::asJsonObject)
                    .filter(d -> eventId.equals(d.getString("eventId", ""))).findFirst().orElse(null);
            if (last != null && status.equals(last.getString("status"))) {
                return last;
            }
            Webhooks.sleep(Duration.ofMillis(200));
        }
        throw new AssertionError("the forwarding of " + eventId + " is not " + status + " after "
                + PROCESSING.toSeconds() + " s: " + last);
    }

    /** A Standard Webhooks delivery to the source, with this type. */
    private void send(String source, String id, String type) {
        HttpResponse<String> response = webhooks.send(webhooks.standard(source, id, "{\"type\":" + json(type) + "}"));
        assertEquals(202, response.statusCode(), response.body());
    }

    /** The test handler stops failing for this event: its cause is fixed. */
    private void fix(String source, String id) {
        HttpResponse<String> fixed = webhooks.send(HttpRequest.newBuilder(
                URI.create(webhooks.base() + "it/events/" + source + "/" + id + "/fix"))
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertEquals(204, fixed.statusCode(), fixed.body());
    }

    /** An operator API call with no credentials of its own: the test adds the cookie or not. */
    private HttpRequest.Builder api(String path) {
        return HttpRequest.newBuilder(URI.create(webhooks.base() + path)).timeout(Duration.ofSeconds(30));
    }

    /** A keyboard user sees where the focus is: an outline (or a ring drawn as a shadow) on the focused element. */
    private void assertFocusVisible(WebElement element) {
        Boolean visible = (Boolean) browser.script("const s = getComputedStyle(arguments[0]);"
                + "return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none';",
                element);
        assertTrue(visible, "a visible focus indicator on " + element.getText());
    }

    /** Relative luminance, 0 (black) to 1 (white), of a computed CSS colour such as {@code rgb(18, 18, 18)}. */
    private static double luminance(String color) {
        var matcher = Pattern.compile("(\\d+(?:\\.\\d+)?)\\D+(\\d+(?:\\.\\d+)?)\\D+(\\d+(?:\\.\\d+)?)").matcher(color);
        assertTrue(matcher.find(), "a colour: " + color);
        return (0.2126 * Double.parseDouble(matcher.group(1)) + 0.7152 * Double.parseDouble(matcher.group(2))
                + 0.0722 * Double.parseDouble(matcher.group(3))) / 255;
    }

    private static org.openqa.selenium.chromium.ChromiumNetworkConditions offline() {
        var conditions = new org.openqa.selenium.chromium.ChromiumNetworkConditions();
        conditions.setOffline(true);
        return conditions;
    }

    /** {@code hookstile_operator_auth_failures_total{reason="invalid-token"}}, from the server's metrics. */
    private long invalidTokenFailures() {
        return webhooks.get("metrics").body().lines()
                .filter(line -> line.startsWith("hookstile_operator_auth_failures_total{"))
                .filter(line -> line.contains("reason=\"invalid-token\""))
                .mapToLong(line -> (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }

    private static java.util.function.Predicate<JsonObject> status(String status) {
        return state -> status.equals(state.getString("status"));
    }

    private static String json(String text) {
        return jakarta.json.Json.createValue(text).toString();
    }
}
