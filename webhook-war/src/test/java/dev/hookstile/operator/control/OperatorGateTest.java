package dev.hookstile.operator.control;

import dev.hookstile.operator.boundary.AdminToken;
import org.eclipse.microprofile.metrics.Counter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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
    private final Map<OperatorGate.Reason, AtomicLong> counts = new EnumMap<>(OperatorGate.Reason.class);
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
        assertEquals(1, counts.get(OperatorGate.Reason.INVALID_TOKEN).get());
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

        assertEquals(2, counts.get(OperatorGate.Reason.MISSING_TOKEN).get());
        assertEquals(1, counts.get(OperatorGate.Reason.WRONG_SCHEME).get());
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
        assertEquals(1, counts.get(OperatorGate.Reason.THROTTLED).get());
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
        assertEquals(1, counts.get(OperatorGate.Reason.ADDRESS_NOT_ALLOWED).get());
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
        assertEquals("-", OperatorGate.clean(null, 10));
        assertEquals("abc...", OperatorGate.clean("abcdef", 3));
    }

    private OperatorGate gate(String allowed) {
        Map<OperatorGate.Reason, Counter> counters = new EnumMap<>(OperatorGate.Reason.class);
        for (OperatorGate.Reason reason : OperatorGate.Reason.values()) {
            AtomicLong count = new AtomicLong();
            counts.put(reason, count);
            counters.put(reason, new Counter() {
                @Override
                public void inc() {
                    count.incrementAndGet();
                }

                @Override
                public void inc(long n) {
                    count.addAndGet(n);
                }

                @Override
                public long getCount() {
                    return count.get();
                }
            });
        }
        AdminToken token = new AdminToken() {
            @Override
            public boolean matches(String presented) {
                return TOKEN.equals(presented);
            }
        };
        return new OperatorGate(token, AddressAllowlist.parse(Optional.of(allowed)),
                new FailedAttempts(() -> now, 100), counters);
    }
}
