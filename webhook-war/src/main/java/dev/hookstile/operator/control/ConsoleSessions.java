package dev.hookstile.operator.control;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.Config;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The console's sign-ins: a session opened with the admin token and named by a random id that travels only in the
 * {@code HttpOnly} cookie, each with its own anti-forgery token. In memory, per instance: a restart or another
 * instance behind a load balancer knows none of them (sign in again).
 *
 * <p>A session ends {@link #IDLE_MINUTES} ({@code hookstile.console.session-idle-minutes}, default 30) after its
 * last use, {@link #MAX_LIFETIME_NANOS} (12 h) after it was opened whatever its use, or at sign-out. At most
 * {@link #MAX_SESSIONS} live at once, the least recently used ended first: the table stays bounded however often
 * someone signs in (which needs the admin token anyway).
 *
 * <p>Only the SHA-256 of each id is held and looked up: a heap dump or a timing difference in the lookup tells
 * nothing usable about a live id. Ids and anti-forgery tokens are 256 random bits from {@link SecureRandom}.
 */
@ApplicationScoped
public class ConsoleSessions {

    public static final String IDLE_MINUTES = "hookstile.console.session-idle-minutes";
    public static final String IDLE_MINUTES_VARIABLE = "HOOKSTILE_CONSOLE_SESSION_IDLE_MINUTES";
    static final int DEFAULT_IDLE_MINUTES = 30;
    static final long MAX_LIFETIME_NANOS = TimeUnit.HOURS.toNanos(12);
    static final int MAX_SESSIONS = 1_000;
    static final int RANDOM_BYTES = 32;
    /** A request may bring several cookies of the name (one planted by a sibling domain); more are not looked at. */
    static final int MAX_COOKIES = 4;

    /** One live session as its user sees it: the anti-forgery token its page must echo. */
    public static final class Session {
        private final byte[] csrfDigest;
        private final String csrfToken;
        private final long opened;
        private long lastUsed;

        private Session(String csrfToken, long opened) {
            this.csrfToken = csrfToken;
            this.csrfDigest = sha256(csrfToken);
            this.opened = opened;
            this.lastUsed = opened;
        }

        public String csrfToken() {
            return csrfToken;
        }

        /** Digest to digest, so the comparison takes the same time whatever was presented. */
        public boolean csrfMatches(String presented) {
            return presented != null && MessageDigest.isEqual(csrfDigest, sha256(presented));
        }
    }

    /** What signing in hands out: the cookie's value and the session behind it. */
    public record Opened(String id, Session session) {
    }

    @Inject
    Config config;

    private final SecureRandom random = new SecureRandom();
    private final LongSupplier nanoClock;
    private final int maxSessions;
    private final Map<String, Session> sessions;
    private long idleNanos;

    public ConsoleSessions() {
        this(System::nanoTime, TimeUnit.MINUTES.toNanos(DEFAULT_IDLE_MINUTES), MAX_SESSIONS);
    }

    /** For unit tests: a clock they move, and the idle limit and cap they choose. */
    ConsoleSessions(LongSupplier nanoClock, long idleNanos, int maxSessions) {
        this.nanoClock = nanoClock;
        this.idleNanos = idleNanos;
        this.maxSessions = maxSessions;
        // Access order: the head is always the longest unused, so expiry and the cap both take from the head.
        this.sessions = new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Session> eldest) {
                return size() > ConsoleSessions.this.maxSessions;
            }
        };
    }

    /** At deployment: a bad idle setting must fail the start, not the first sign-in. */
    void eager(@Observes @Initialized(ApplicationScoped.class) Object applicationStarted) {
        // Observing the event instantiates the bean.
    }

    @PostConstruct
    void configure() {
        int minutes = config.getOptionalValue(IDLE_MINUTES, Integer.class).orElse(DEFAULT_IDLE_MINUTES);
        if (minutes < 1 || minutes > TimeUnit.NANOSECONDS.toMinutes(MAX_LIFETIME_NANOS)) {
            throw new IllegalStateException(IDLE_MINUTES_VARIABLE + " (" + IDLE_MINUTES + ") is " + minutes
                    + "; it must be 1 to 720 minutes (a session ends after 12 hours anyway)");
        }
        idleNanos = TimeUnit.MINUTES.toNanos(minutes);
    }

    /** How long a session may rest before it ends, for the sign-in answer. */
    public long idleTimeoutSeconds() {
        return TimeUnit.NANOSECONDS.toSeconds(idleNanos);
    }

    /** A new session; the id goes into the cookie and nowhere else. */
    public synchronized Opened open() {
        long now = nanoClock.getAsLong();
        expire(now);
        String id = randomToken();
        Session session = new Session(randomToken(), now);
        sessions.put(key(id), session);
        return new Opened(id, session);
    }

    /**
     * The live session the cookie names, marked as used now, or {@code null} (unknown, idle too long, too old,
     * ended).
     */
    public synchronized Session use(String id) {
        long now = nanoClock.getAsLong();
        Session session = live(id, now);
        if (session != null) {
            session.lastUsed = now;
        }
        return session;
    }

    /** The live session the cookie names, without counting this as a use (a request that will be refused). */
    public synchronized Session find(String id) {
        return live(id, nanoClock.getAsLong());
    }

    /**
     * The first live session among a request's session cookies (several may carry the name, one planted by a sibling
     * domain; no more than {@value #MAX_COOKIES} are looked at), with its id; {@code null} when none is live.
     */
    public synchronized Opened firstLive(List<String> ids) {
        for (String id : ids.subList(0, Math.min(ids.size(), MAX_COOKIES))) {
            Session session = find(id);
            if (session != null) {
                return new Opened(id, session);
            }
        }
        return null;
    }

    /** Sign-out: the id opens nothing from now on. */
    public synchronized void end(String id) {
        if (id != null) {
            sessions.remove(key(id));
        }
    }

    synchronized int live() {
        expire(nanoClock.getAsLong());
        return sessions.size();
    }

    private Session live(String id, long now) {
        // Ours are 43 characters; anything much longer is not worth hashing.
        if (id == null || id.isEmpty() || id.length() > 100) {
            return null;
        }
        expire(now);
        String key = key(id);
        Session session = sessions.get(key);
        if (session == null) {
            return null;
        }
        if (expired(session, now)) {
            sessions.remove(key);
            return null;
        }
        return session;
    }

    /** Ends the idle sessions at the head; one past its 12 hours but still in use ends when it is next looked up. */
    private void expire(long now) {
        Iterator<Session> eldest = sessions.values().iterator();
        while (eldest.hasNext()) {
            Session session = eldest.next();
            if (!expired(session, now)) {
                return;
            }
            eldest.remove();
        }
    }

    private boolean expired(Session session, long now) {
        return now - session.lastUsed >= idleNanos || now - session.opened >= MAX_LIFETIME_NANOS;
    }

    private String randomToken() {
        byte[] bytes = new byte[RANDOM_BYTES];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static String key(String id) {
        return Base64.getEncoder().encodeToString(sha256(id));
    }

    private static byte[] sha256(String value) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
