package dev.hookstile.operator.control;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Refused operator API attempts per client address: after {@link #FREE_FAILURES} failures a client waits, 1 s after
 * the next failure, then twice as long after each further one, up to {@link #MAX_DELAY_NANOS}; while it waits it is
 * answered {@code 429} without its token being looked at, so waiting is not optional. A client with no failure for
 * {@link #FORGET_AFTER_NANOS} starts again from nothing, and so does one that presents the right token.
 *
 * <p>Also decides which refusals are logged: at most one line per client per minute (the next line says how many
 * were left out), and at most {@link #MAX_LINES_PER_MINUTE} lines a minute in all, so that a guesser with many
 * addresses cannot flood the log either.
 *
 * <p>At most {@link #MAX_CLIENTS} clients are remembered, the least recently seen forgotten first: memory stays
 * bounded whatever the number of addresses an attacker uses (with more addresses than that, each address gets its
 * free failures again; the token's length, not this, is what makes guessing hopeless).
 */
public class FailedAttempts {

    public static final int FREE_FAILURES = 10;
    static final long FIRST_DELAY_NANOS = TimeUnit.SECONDS.toNanos(1);
    static final long MAX_DELAY_NANOS = TimeUnit.MINUTES.toNanos(5);
    static final long FORGET_AFTER_NANOS = TimeUnit.MINUTES.toNanos(15);
    static final long LOG_INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);
    static final int MAX_LINES_PER_MINUTE = 30;
    static final int MAX_CLIENTS = 10_000;

    /** What to do with one refusal: the wait imposed (0: none) and whether to log it. */
    public record Verdict(long retryAfterSeconds, boolean log, long suppressedBefore) {
        static final Verdict ADMIT = new Verdict(0, false, 0);

        public boolean delayed() {
            return retryAfterSeconds > 0;
        }
    }

    private static final class Client {
        int failures;
        long lastFailure;
        long waitUntil;
        boolean waiting;
        long lastLine;
        boolean logged;
        long suppressed;
    }

    private final LongSupplier nanoClock;
    private final int maxClients;
    private final Map<String, Client> clients;
    private long minuteStart;
    private int linesThisMinute;

    public FailedAttempts() {
        this(System::nanoTime, MAX_CLIENTS);
    }

    FailedAttempts(LongSupplier nanoClock, int maxClients) {
        this.nanoClock = nanoClock;
        this.maxClients = maxClients;
        this.clients = new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Client> eldest) {
                return size() > FailedAttempts.this.maxClients;
            }
        };
        this.minuteStart = nanoClock.getAsLong();
    }

    /**
     * Before the token is checked: a client still waiting out its delay is refused ({@link Verdict#delayed()}),
     * anything else may try ({@link Verdict#ADMIT}).
     */
    public synchronized Verdict beforeCheck(String address) {
        Client client = clients.get(address);
        if (client == null || !client.waiting) {
            return Verdict.ADMIT;
        }
        long now = nanoClock.getAsLong();
        long left = client.waitUntil - now;
        if (left <= 0) {
            client.waiting = false;
            return Verdict.ADMIT;
        }
        return verdict(client, now, seconds(left));
    }

    /** A wrong, missing or malformed token: counted, and perhaps a delay imposed from now. */
    public synchronized Verdict failed(String address) {
        long now = nanoClock.getAsLong();
        Client client = clients.computeIfAbsent(address, a -> new Client());
        if (client.failures > 0 && now - client.lastFailure >= FORGET_AFTER_NANOS) {
            client.failures = 0;
        }
        client.failures++;
        client.lastFailure = now;
        long delay = delayAfter(client.failures);
        if (delay > 0) {
            client.waiting = true;
            client.waitUntil = now + delay;
        }
        return verdict(client, now, delay > 0 ? seconds(delay) : 0);
    }

    /** A refusal that is not a guess (an address outside the allowlist): only the log decision. */
    public synchronized Verdict refused(String address) {
        return verdict(clients.computeIfAbsent(address, a -> new Client()), nanoClock.getAsLong(), 0);
    }

    /**
     * The right token: the client's failures are forgiven. Its log minute is not: a guesser who shares an address
     * with an operator must not earn a log line per operator call.
     */
    public synchronized void succeeded(String address) {
        if (clients.isEmpty()) {
            return;
        }
        Client client = clients.get(address);
        if (client != null) {
            client.failures = 0;
            client.waiting = false;
        }
    }

    synchronized int remembered() {
        return clients.size();
    }

    static long delayAfter(int failures) {
        int over = failures - FREE_FAILURES;
        if (over <= 0) {
            return 0;
        }
        int doublings = Math.min(over - 1, 30);
        return Math.min(FIRST_DELAY_NANOS << doublings, MAX_DELAY_NANOS);
    }

    private Verdict verdict(Client client, long now, long retryAfterSeconds) {
        if (now - minuteStart >= LOG_INTERVAL_NANOS) {
            minuteStart = now;
            linesThisMinute = 0;
        }
        boolean due = !client.logged || now - client.lastLine >= LOG_INTERVAL_NANOS;
        if (due && linesThisMinute < MAX_LINES_PER_MINUTE) {
            linesThisMinute++;
            long suppressed = client.suppressed;
            client.logged = true;
            client.lastLine = now;
            client.suppressed = 0;
            return new Verdict(retryAfterSeconds, true, suppressed);
        }
        client.suppressed++;
        return new Verdict(retryAfterSeconds, false, 0);
    }

    private static long seconds(long nanos) {
        return Math.max(1, (nanos + 999_999_999L) / 1_000_000_000L);
    }
}
