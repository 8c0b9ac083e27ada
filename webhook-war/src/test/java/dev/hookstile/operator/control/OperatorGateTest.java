package dev.hookstile.operator.control;

import dev.hookstile.metrics.boundary.Counter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OperatorGateTest {

    private static final String TOKEN = "the-right-operator-token-0123456789abcdef";
    private static final Logger LOG = Logger.getLogger(OperatorGate.class.getName());

    private long now = 5_000_000_000L;
    private final ConsoleSessions sessions = new ConsoleSessions(() -> now, TimeUnit.MINUTES.toNanos(30), 10);
    private final Map<OperatorGate.Reason, Counter> counts = new EnumMap<>(OperatorGate.Reason.class);
    private final List<LogRecord> logged = new ArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            logged.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void captureLog() {
        LOG.addHandler(capture);
    }

    @AfterEach
    void releaseLog() {
        LOG.removeHandler(capture);
    }

    @Test
    void theRightTokenPassesAndAWrongOneIs401LoggedAtWarningWithoutTheToken() {
        OperatorGate gate = gate("");
        String wrong = "a-mistyped-but-real-secret-0123456789abcdef";

        assertNull(gate.check("203.0.113.5", "Bearer " + TOKEN, "GET", "/api/sources"));
        OperatorGate.Refusal refusal = gate.check("203.0.113.5", "Bearer " + wrong, "GET", "/api/sources");

        assertEquals(401, refusal.status());
        assertEquals("Bearer realm=\"hookstile\", error=\"invalid_token\"", refusal.challenge());
        assertEquals(1, counts.get(OperatorGate.Reason.INVALID_TOKEN).value());
        assertEquals(1, logged.size());
        assertEquals(Level.WARNING, logged.get(0).getLevel());
        assertTrue(logged.get(0).getMessage().contains("203.0.113.5"), logged.get(0).getMessage());
        assertTrue(logged.get(0).getMessage().contains("invalid-token"), logged.get(0).getMessage());
        assertFalse(logged.get(0).getMessage().contains(wrong), logged.get(0).getMessage());
        assertFalse(refusal.detail().contains(wrong));
    }

    @Test
    void missingAndForeignSchemesAre401AndCounted() {
        OperatorGate gate = gate("");

        assertEquals(401, gate.check("203.0.113.5", null, "GET", "/api").status());
        assertEquals("Bearer realm=\"hookstile\"", gate.check("203.0.113.5", " ", "GET", "/api").challenge());
        assertEquals(401, gate.check("203.0.113.5", "Basic " + TOKEN, "GET", "/api").status());

        assertEquals(2, counts.get(OperatorGate.Reason.MISSING_TOKEN).value());
        assertEquals(1, counts.get(OperatorGate.Reason.WRONG_SCHEME).value());
    }

    @Test
    void requestsWithoutAnyCredentialNeverMakeTheOperatorWait() {
        // What a hostile page can make the operator's browser send: no token, no cookie, from the operator's address.
        OperatorGate gate = gate("");
        for (int i = 0; i < 50; i++) {
            assertEquals(401, gate.check("203.0.113.5", null, "POST", "/api/replays").status());
        }

        assertNull(gate.check("203.0.113.5", "Bearer " + TOKEN, "GET", "/api/sources"));
        assertEquals(50, counts.get(OperatorGate.Reason.MISSING_TOKEN).value());
    }

    @Test
    void afterTenFailuresEvenTheRightTokenWaitsThenWorks() {
        OperatorGate gate = gate("");
        for (int i = 0; i < 10; i++) {
            assertEquals(401, gate.check("203.0.113.5", "Bearer wrong", "GET", "/api/sources").status());
        }
        assertEquals(401, gate.check("203.0.113.5", "Bearer wrong", "GET", "/api/sources").status());

        OperatorGate.Refusal waiting = gate.check("203.0.113.5", "Bearer " + TOKEN, "GET", "/api/sources");

        assertEquals(429, waiting.status());
        assertEquals(1, waiting.retryAfterSeconds());
        assertEquals("too-many-failures", waiting.slug());
        assertEquals(1, counts.get(OperatorGate.Reason.THROTTLED).value());
        assertNull(gate.check("198.51.100.7", "Bearer " + TOKEN, "GET", "/api/sources"), "another address");
        now += TimeUnit.SECONDS.toNanos(1);
        assertNull(gate.check("203.0.113.5", "Bearer " + TOKEN, "GET", "/api/sources"));
        assertEquals(401, gate.check("203.0.113.5", "Bearer wrong", "GET", "/api/sources").status(),
                "the right token forgave the address");
    }

    @Test
    void anAddressOutsideTheAllowlistIs403WhateverItSends() {
        OperatorGate gate = gate("127.0.0.1,10.0.0.0/8");

        OperatorGate.Refusal refusal = gate.check("203.0.113.5", "Bearer " + TOKEN, "GET", "/api/sources");

        assertEquals(403, refusal.status());
        assertEquals(1, counts.get(OperatorGate.Reason.ADDRESS_NOT_ALLOWED).value());
        assertNull(gate.check("10.1.2.3", "Bearer " + TOKEN, "GET", "/api/sources"));
        assertNull(gate.check("127.0.0.1", "Bearer " + TOKEN, "GET", "/api/sources"));
    }

    @Test
    void whatTheClientControlsIsLoggedAsOneCleanBoundedLine() {
        OperatorGate gate = gate("");

        gate.check("203.0.113.5", null, "GET", "/api/x\r\nSEVERE: forged line\u001b[31m" + "y".repeat(500));

        String line = logged.get(0).getMessage();
        assertFalse(line.contains("\n") || line.contains("\r") || line.contains("\u001b"), line);
        assertTrue(line.contains("/api/x??SEVERE: forged line?[31m"), line);
        assertTrue(line.length() < 400, line);
        assertEquals("-", GateRefusals.clean(null, 10));
        assertEquals("abc...", GateRefusals.clean("abcdef", 3));
    }

    @Test
    void aLiveSessionCookieAdmitsASafeMethodWithoutAnyToken() {
        OperatorGate gate = gate("");
        ConsoleSessions.Opened opened = sessions.open();

        assertNull(gate.check(cookie(opened.id(), "GET", null, null)));
        assertNull(gate.check(cookie(opened.id(), "HEAD", null, null)));
        assertNull(gate.check(cookie(opened.id(), "OPTIONS", null, null)));
    }

    @Test
    void withTheCookieAStateChangingMethodNeedsThatSessionsAntiForgeryToken() {
        OperatorGate gate = gate("");
        ConsoleSessions.Opened opened = sessions.open();
        ConsoleSessions.Opened other = sessions.open();

        for (String csrf : new String[] {null, "", "wrong", other.session().csrfToken()}) {
            for (String method : new String[] {"POST", "PUT", "PATCH", "DELETE"}) {
                OperatorGate.Refusal refusal = gate.check(cookie(opened.id(), method, csrf, null));
                assertEquals(403, refusal.status(), method + " " + csrf);
                assertEquals("csrf-token-invalid", refusal.slug());
                assertEquals(OperatorGate.Reason.CSRF_TOKEN_INVALID, refusal.reason());
            }
        }
        assertNull(gate.check(cookie(opened.id(), "POST", opened.session().csrfToken(), null)));
        assertEquals(16, counts.get(OperatorGate.Reason.CSRF_TOKEN_INVALID).value());
        assertNull(gate.check(cookie(opened.id(), "POST", opened.session().csrfToken(), null)),
                "not a guess at the admin token: no wait imposed");
    }

    @Test
    void aCookieRequestFromAnotherSitesPageIsRefusedEvenWithTheAntiForgeryToken() {
        OperatorGate gate = gate("");
        ConsoleSessions.Opened opened = sessions.open();
        String csrf = opened.session().csrfToken();

        for (String origin : new String[] {"https://evil.example", "http://hookstile.example:8081", "null",
                "http://hookstile.example.evil.example:8080", "hookstile.example:8080"}) {
            OperatorGate.Refusal refusal = gate.check(cookie(opened.id(), "POST", csrf, origin));
            assertEquals(403, refusal.status(), origin);
            assertEquals("csrf-token-invalid", refusal.slug());
            assertEquals(OperatorGate.Reason.FOREIGN_ORIGIN, refusal.reason());
        }
        assertEquals(403, gate.check(cookie(opened.id(), "GET", null, "https://evil.example")).status());
        assertNull(gate.check(cookie(opened.id(), "POST", csrf, "http://HookStile.example:8080")));
        assertNull(gate.check(cookie(opened.id(), "POST", csrf, null)), "no Origin: the token decides");
    }

    @Test
    void anEndedOrUnknownSessionIs401AndCountedButImposesNoWait() {
        OperatorGate gate = gate("");
        ConsoleSessions.Opened opened = sessions.open();
        sessions.end(opened.id());

        for (int i = 0; i < 15; i++) {
            OperatorGate.Refusal refusal = gate.check(cookie(opened.id(), "GET", null, null));
            assertEquals(401, refusal.status());
            assertEquals(OperatorGate.CHALLENGE, refusal.challenge());
        }
        assertEquals(15, counts.get(OperatorGate.Reason.INVALID_SESSION).value());
        assertEquals(1, logged.size(), "one line a minute per address");
        assertNull(gate.check("203.0.113.5", "Bearer " + TOKEN, "GET", "/api/sources"),
                "an expired console must not lock its operator out");
    }

    @Test
    void aSessionIdleTooLongOpensNothing() {
        OperatorGate gate = gate("");
        ConsoleSessions.Opened opened = sessions.open();

        now += TimeUnit.MINUTES.toNanos(30);

        assertEquals(401, gate.check(cookie(opened.id(), "GET", null, null)).status());
    }

    @Test
    void aCookiePlantedBesideTheRealOneDoesNotLockTheOperatorOut() {
        OperatorGate gate = gate("");
        ConsoleSessions.Opened opened = sessions.open();

        assertNull(gate.check(new OperatorGate.Request("203.0.113.5", "POST", "/api/replays", null,
                List.of("planted", opened.id()), opened.session().csrfToken(), null, "hookstile.example:8080", null)));
    }

    @Test
    void aBearerTokenDecidesAloneWhateverCookieComesWithIt() {
        OperatorGate gate = gate("");
        ConsoleSessions.Opened opened = sessions.open();

        OperatorGate.Refusal wrong = gate.check(new OperatorGate.Request("203.0.113.5", "GET", "/api/sources",
                "Bearer wrong", List.of(opened.id()), null, null, "hookstile.example:8080", null));
        OperatorGate.Refusal right = gate.check(new OperatorGate.Request("203.0.113.5", "POST", "/api/replays",
                "Bearer " + TOKEN, List.of("ended"), null, "https://evil.example", "hookstile.example:8080", null));

        assertEquals(401, wrong.status());
        assertEquals(OperatorGate.Reason.INVALID_TOKEN, wrong.reason());
        assertNull(right, "a browser never adds a bearer token by itself: no anti-forgery token needed");
    }

    @Test
    void theAllowlistAndTheWaitApplyToSessionsToo() {
        OperatorGate gate = gate("10.0.0.0/8");
        ConsoleSessions.Opened opened = sessions.open();

        assertEquals(403, gate.check(cookie(opened.id(), "GET", null, null)).status());
        OperatorGate.Refusal signIn = signIn(gate, "203.0.113.5", TOKEN);
        assertEquals(403, signIn.status());
        assertEquals(403, gate.reach("203.0.113.5", "GET", OperatorGate.SESSION_PATH).status());
        assertNull(signIn(gate, "10.0.0.1", TOKEN));
    }

    @Test
    void aWrongSignInTokenIsCountedAndThrottledLikeAWrongBearerToken() {
        OperatorGate gate = gate("");
        String wrong = "a-mistyped-but-real-secret-0123456789abcdef";

        OperatorGate.Refusal refusal = signIn(gate, "203.0.113.5", wrong);
        assertEquals(401, refusal.status());
        assertEquals("unauthorized", refusal.slug());
        assertTrue(refusal.detail().contains("admin token is wrong"), refusal.detail());
        assertFalse(refusal.detail().contains(wrong));
        assertFalse(logged.get(0).getMessage().contains(wrong), logged.get(0).getMessage());
        assertEquals(OperatorGate.Reason.MISSING_TOKEN,
                signIn(gate, "203.0.113.5", null).reason());
        // The missing token was counted but is no guess: ten more wrong ones start the wait.
        for (int i = 0; i < 10; i++) {
            signIn(gate, "203.0.113.5", wrong);
        }
        assertEquals(11, counts.get(OperatorGate.Reason.INVALID_TOKEN).value());
        assertEquals(1, counts.get(OperatorGate.Reason.MISSING_TOKEN).value());

        OperatorGate.Refusal waiting = signIn(gate, "203.0.113.5", TOKEN);
        assertEquals(429, waiting.status());
        assertEquals(429, gate.reach("203.0.113.5", "GET", OperatorGate.SESSION_PATH).status());
        assertEquals(429, gate.check(cookie(sessions.open().id(), "GET", null, null)).status(),
                "while it waits, even a live session");
        now += TimeUnit.SECONDS.toNanos(1);
        assertNull(signIn(gate, "203.0.113.5", TOKEN));
    }

    @Test
    void aSignInFromAnotherSitesPageOrWithoutAnOriginIs403AndNoGuess() {
        OperatorGate gate = gate("");

        for (String origin : new String[] {"https://evil.example", "null", "http://hookstile.example:8081", null}) {
            for (int i = 0; i < 12; i++) {
                OperatorGate.Refusal refusal = gate.signIn(signInRequest(origin), "application/json", "wrong");
                assertEquals(403, refusal.status(), origin);
                assertEquals("foreign-origin", refusal.slug());
                assertEquals(OperatorGate.Reason.FOREIGN_ORIGIN, refusal.reason());
            }
        }

        assertEquals(48, counts.get(OperatorGate.Reason.FOREIGN_ORIGIN).value());
        assertEquals(0, counts.get(OperatorGate.Reason.INVALID_TOKEN).value(), "the token was not even looked at");
        assertNull(gate.check("203.0.113.5", "Bearer " + TOKEN, "GET", "/api/sources"), "no wait imposed");
        assertNull(signIn(gate, "203.0.113.5", TOKEN));
    }

    @Test
    void aSignInThatIsNotJsonIs415AndNoGuess() {
        // What a page of any site can post without a CORS preflight: text/plain, a form, or no type at all.
        OperatorGate gate = gate("");
        for (String type : new String[] {"text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded",
                "multipart/form-data; boundary=x", null, "application/jsonx", "application/problem+json"}) {
            for (int i = 0; i < 12; i++) {
                OperatorGate.Refusal refusal = gate.signIn(signInRequest(ORIGIN), type, "wrong");
                assertEquals(415, refusal.status(), type);
                assertEquals("unsupported-media-type", refusal.slug());
            }
        }

        assertEquals(84, counts.get(OperatorGate.Reason.UNSUPPORTED_MEDIA_TYPE).value());
        assertNull(gate.check("203.0.113.5", "Bearer " + TOKEN, "GET", "/api/sources"), "no wait imposed");
        assertNull(gate.signIn(signInRequest(ORIGIN), "Application/JSON; charset=utf-8", TOKEN));
    }

    @Test
    void whatCanBeRefusedWithoutTheBodyIsRefusedBeforeItAndTheAllowlistFirst() {
        OperatorGate gate = gate("10.0.0.0/8");

        assertEquals(403, gate.beforeSignIn(signInRequest(ORIGIN), "application/json").status());
        assertEquals(OperatorGate.Reason.ADDRESS_NOT_ALLOWED,
                gate.beforeSignIn(signInRequest(null), "text/plain").reason());
        OperatorGate.Request allowed = new OperatorGate.Request("10.1.2.3", "POST", OperatorGate.SESSION_PATH, null,
                List.of(), null, "https://hooks.example", "127.0.0.1:8080", "hooks.example");
        assertNull(gate.beforeSignIn(allowed, "application/json"), "behind a proxy: X-Forwarded-Host");
        assertEquals(415, gate.beforeSignIn(allowed, "text/plain").status());
    }

    @Test
    void aProxysBasicCredentialsBesideTheCookieAreNoGuessTheCookieDecides() {
        OperatorGate gate = gate("");
        ConsoleSessions.Opened opened = sessions.open();

        for (int i = 0; i < 12; i++) {
            assertNull(gate.check(new OperatorGate.Request("203.0.113.5", "GET", "/api/sources", "Basic b3BzOnB3",
                    List.of(opened.id()), null, null, "hookstile.example:8080", null)));
            assertEquals(401, gate.check(new OperatorGate.Request("203.0.113.5", "GET", "/api/sources",
                    "Basic b3BzOnB3", List.of("ended"), null, null, "hookstile.example:8080", null)).status());
        }

        assertEquals(12, counts.get(OperatorGate.Reason.INVALID_SESSION).value());
        assertEquals(0, counts.get(OperatorGate.Reason.WRONG_SCHEME).value());
        assertNull(gate.check("203.0.113.5", "Bearer " + TOKEN, "GET", "/api/sources"));
    }

    @Test
    void aForeignSchemeWithoutACookieIs401CountedButNeverMakesTheOperatorWait() {
        // A browser attaches a proxy's Basic credentials by itself, also to requests another site's page starts.
        OperatorGate gate = gate("");
        for (int i = 0; i < 12; i++) {
            assertEquals(401, gate.check("203.0.113.5", "Basic b3BzOnB3", "POST", "/api/replays").status());
        }

        assertEquals(12, counts.get(OperatorGate.Reason.WRONG_SCHEME).value());
        assertNull(gate.check("203.0.113.5", "Bearer " + TOKEN, "GET", "/api/sources"));
    }

    @Test
    void onlyPostAndGetOfTheSessionPathOpenWithoutCredentials() {
        assertTrue(OperatorGate.opensWithoutCredentials("POST", "/api/session"));
        assertTrue(OperatorGate.opensWithoutCredentials("GET", "/api/session"));
        assertFalse(OperatorGate.opensWithoutCredentials("DELETE", "/api/session"));
        assertFalse(OperatorGate.opensWithoutCredentials("HEAD", "/api/session"));
        assertFalse(OperatorGate.opensWithoutCredentials("POST", "/api/session/"));
        assertFalse(OperatorGate.opensWithoutCredentials("POST", "/api/sessions"));
        assertFalse(OperatorGate.opensWithoutCredentials("GET", "/api/session/x"));
        assertFalse(OperatorGate.opensWithoutCredentials("GET", "/api/events"));
    }

    @Test
    void neitherTheSessionIdNorTheAntiForgeryTokenIsLogged() {
        OperatorGate gate = gate("");
        ConsoleSessions.Opened opened = sessions.open();
        String otherCsrf = sessions.open().session().csrfToken();

        gate.check(cookie(opened.id(), "POST", otherCsrf, null));
        now += TimeUnit.MINUTES.toNanos(2);
        gate.check(cookie(opened.id(), "POST", null, "https://evil.example"));
        now += TimeUnit.MINUTES.toNanos(31);
        gate.check(cookie(opened.id(), "GET", null, null));

        assertEquals(3, logged.size());
        for (LogRecord record : logged) {
            assertFalse(record.getMessage().contains(opened.id()), record.getMessage());
            assertFalse(record.getMessage().contains(otherCsrf), record.getMessage());
        }
    }

    private static final String ORIGIN = "http://hookstile.example:8080";

    /** A sign-in from 203.0.113.5 to hookstile.example:8080 with this {@code Origin}. */
    private static OperatorGate.Request signInRequest(String origin) {
        return new OperatorGate.Request("203.0.113.5", "POST", OperatorGate.SESSION_PATH, null, List.of(), null,
                origin, "hookstile.example:8080", null);
    }

    /** A sign-in as the console posts it: JSON, from a page of this site. */
    private static OperatorGate.Refusal signIn(OperatorGate gate, String address, String token) {
        return gate.signIn(new OperatorGate.Request(address, "POST", OperatorGate.SESSION_PATH, null, List.of(), null,
                ORIGIN, "hookstile.example:8080", null), "application/json", token);
    }

    private static OperatorGate.Request cookie(String id, String method, String csrf, String origin) {
        return new OperatorGate.Request("203.0.113.5", method, "/api/events", null, List.of(id), csrf, origin,
                "hookstile.example:8080", null);
    }

    private OperatorGate gate(String allowed) {
        Map<OperatorGate.Reason, Counter> counters = new EnumMap<>(OperatorGate.Reason.class);
        for (OperatorGate.Reason reason : OperatorGate.Reason.values()) {
            Counter count = new Counter();
            counts.put(reason, count);
            counters.put(reason, count);
        }
        AdminToken token = new AdminToken() {
            @Override
            public boolean matches(String presented) {
                return TOKEN.equals(presented);
            }
        };
        return new OperatorGate(token, AddressAllowlist.parse(Optional.of(allowed)),
                new FailedAttempts(() -> now, 100), counters, sessions);
    }
}
