package dev.hookstile.operator.control;

import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.Base64;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConsoleSessionsTest {

    private static final long MINUTE = TimeUnit.MINUTES.toNanos(1);

    private long now = 7_000_000_000L;
    private final ConsoleSessions sessions = new ConsoleSessions(() -> now, 30 * MINUTE, 5);

    @Test
    void idsAndAntiForgeryTokensAre256RandomBitsInBase64Url() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 3; i++) {
            ConsoleSessions.Opened opened = sessions.open();
            for (String value : new String[] {opened.id(), opened.session().csrfToken()}) {
                assertTrue(value.matches("[A-Za-z0-9_-]{43}"), value);
                assertEquals(32, Base64.getUrlDecoder().decode(value).length);
                assertTrue(seen.add(value), "never twice");
            }
        }
    }

    @Test
    void aSessionEndsAfterItsIdleTimeAndEachUseStartsThatTimeAgain() {
        ConsoleSessions.Opened opened = sessions.open();

        now += 29 * MINUTE;
        assertSame(opened.session(), sessions.use(opened.id()));
        now += 29 * MINUTE;
        assertSame(opened.session(), sessions.find(opened.id()), "used 29 minutes ago");
        now += MINUTE;

        assertNull(sessions.use(opened.id()), "30 minutes without use");
        assertEquals(0, sessions.live());
    }

    @Test
    void findingASessionIsNotUsingIt() {
        ConsoleSessions.Opened opened = sessions.open();

        now += 20 * MINUTE;
        assertNotNull(sessions.find(opened.id()));
        now += 10 * MINUTE;

        assertNull(sessions.find(opened.id()));
    }

    @Test
    void aSessionInConstantUseStillEndsTwelveHoursAfterSignIn() {
        ConsoleSessions.Opened opened = sessions.open();
        for (int i = 0; i < 12 * 4 - 1; i++) {
            now += 15 * MINUTE;
            assertNotNull(sessions.use(opened.id()), "after " + (i + 1) * 15 + " minutes");
        }
        now += 15 * MINUTE;

        assertNull(sessions.use(opened.id()));
    }

    @Test
    void signingOutEndsTheSessionAtOnce() {
        ConsoleSessions.Opened opened = sessions.open();
        ConsoleSessions.Opened other = sessions.open();

        sessions.end(opened.id());

        assertNull(sessions.use(opened.id()));
        assertNotNull(sessions.use(other.id()), "another browser's session lives on");
        sessions.end(null);
    }

    @Test
    void beyondTheCapTheLeastRecentlyUsedSessionEnds() {
        ConsoleSessions.Opened first = sessions.open();
        ConsoleSessions.Opened second = sessions.open();
        for (int i = 0; i < 3; i++) {
            sessions.open();
        }
        now += MINUTE;
        sessions.use(first.id());

        sessions.open();

        assertEquals(5, sessions.live());
        assertNotNull(sessions.find(first.id()), "used a minute ago");
        assertNull(sessions.find(second.id()), "opened long ago and never used since");
    }

    @Test
    void anUnknownEmptyOrOverlongIdOpensNothing() {
        sessions.open();

        assertNull(sessions.use("not-a-session"));
        assertNull(sessions.use(""));
        assertNull(sessions.use(null));
        assertNull(sessions.use("x".repeat(10_000)));
    }

    @Test
    void theAntiForgeryTokenMatchesOnlyItself() {
        ConsoleSessions.Session session = sessions.open().session();
        ConsoleSessions.Session other = sessions.open().session();

        assertTrue(session.csrfMatches(session.csrfToken()));
        assertFalse(session.csrfMatches(other.csrfToken()));
        assertFalse(session.csrfMatches(null));
        assertFalse(session.csrfMatches(""));
        assertFalse(session.csrfMatches(session.csrfToken() + " "));
    }

    @Test
    void theIdleTimeComesFromTheConfigurationAndMustBeBetweenAMinuteAndTwelveHours() {
        assertEquals(1800, configured(null).idleTimeoutSeconds(), "default 30 minutes");
        assertEquals(300, configured(5).idleTimeoutSeconds());
        assertEquals(720 * 60, configured(720).idleTimeoutSeconds());
        IllegalStateException zero = assertThrows(IllegalStateException.class, () -> configured(0));
        assertTrue(zero.getMessage().contains(ConsoleSessions.IDLE_MINUTES_VARIABLE), zero.getMessage());
        assertThrows(IllegalStateException.class, () -> configured(721));
    }

    private static ConsoleSessions configured(Integer minutes) {
        ConsoleSessions sessions = new ConsoleSessions();
        sessions.config = (Config) Proxy.newProxyInstance(ConsoleSessionsTest.class.getClassLoader(),
                new Class<?>[] {Config.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getOptionalValue") && ConsoleSessions.IDLE_MINUTES.equals(args[0])) {
                        return Optional.ofNullable(minutes);
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
        sessions.configure();
        return sessions;
    }
}
