package dev.hookstile.console.boundary;

import dev.hookstile.it.Browser;
import dev.hookstile.it.DeployedHookstile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.openqa.selenium.Cookie;

import java.util.Locale;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The operator console in Chromium, on the real server, as an operator uses it. One browser serves the whole class
 * (a Chromium start costs seconds on this machine); each test starts signed out in a single blank tab, and ends with
 * a screenshot in {@code target/screenshots/ConsoleIT.<test>.png} and no error reported by the page.
 */
class ConsoleIT extends DeployedHookstile {

    static final String TOKEN = System.getenv("HOOKSTILE_ADMIN_TOKEN");
    static final String SESSION_COOKIE = "hookstile_session";

    private static Browser browser;

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
        // Until the console's static files land (issue 23, branch h/console) there is nothing to drive.
        assumeTrue(webhooks.get("console/").statusCode() != 404, "no console served yet");
    }

    @AfterEach
    void end(TestInfo test) {
        browser.screenshot("ConsoleIT." + test.getTestMethod().orElseThrow().getName());
        browser.assertNoProblems();
    }

    @Test
    void theRightTokenSignsInToTheOverviewWithAnHttpOnlyStrictSessionCookieAndNothingStored() {
        signIn();

        Cookie session = browser.cookie(SESSION_COOKIE).orElseThrow(
                () -> new AssertionError("no " + SESSION_COOKIE + " cookie after signing in"));
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

        browser.type("Admin token", wrong).click("Sign in");

        browser.await("a message saying the token is wrong", d -> {
            String text = browser.bodyText().toLowerCase(Locale.ROOT);
            return text.contains("wrong") || text.contains("invalid") || text.contains("not accepted")
                    ? Boolean.TRUE : null;
        });
        assertTrue(browser.field("Admin token").isDisplayed(), "still on the sign-in form");
        assertTrue(browser.cookie(SESSION_COOKIE).isEmpty(), "no session for a wrong token");
        assertFalse(browser.bodyText().contains(wrong), "the wrong token is not echoed");
    }

    /** Signs in from the start page with the admin token, as an operator does, and lands on the overview. */
    private void signIn() {
        browser.console("");
        browser.type("Admin token", TOKEN).click("Sign in");
        browser.heading("Overview");
    }
}
