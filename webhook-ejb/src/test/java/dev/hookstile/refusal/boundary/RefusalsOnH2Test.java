package dev.hookstile.refusal.boundary;

import dev.hookstile.platform.boundary.SchemaMigration;
import dev.hookstile.refusal.Refusal;
import dev.hookstile.refusal.RefusalQuery;
import dev.hookstile.refusal.control.Sampler;
import dev.hookstile.source.Rejection;
import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Refused deliveries on the embedded database (H2 in PostgreSQL mode) after every migration: written, counted across
 * writes, listed newest first with cursors, and trimmed to the count kept.
 */
class RefusalsOnH2Test {

    private static final Instant T0 = Instant.parse("2026-11-27T10:00:00Z");

    private JdbcDataSource h2;
    private RefusedDeliveries reads;

    @BeforeEach
    void migrate() {
        h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:refusals-" + UUID.randomUUID()
                + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;DB_CLOSE_DELAY=-1");
        Flyway.configure().dataSource(h2).locations("classpath:db/migration").table("hookstile_schema_history")
                .placeholders(SchemaMigration.placeholders(false)).load().migrate();
        reads = new RefusedDeliveries();
        reads.dataSource = h2;
    }

    @Test
    void examplesAreListedNewestFirstInPagesAndCountsAddUp() throws SQLException {
        var examples = new ArrayList<Refusal>();
        for (int i = 0; i < 5; i++) {
            examples.add(example("gh", Rejection.INVALID_SIGNATURE, T0.plusSeconds(i), "d-" + i));
        }
        examples.add(example("nosuch", Rejection.UNKNOWN_SOURCE, T0.plusSeconds(9), "x"));
        long minute = T0.toEpochMilli();
        try (var connection = h2.getConnection()) {
            RefusalWriter.write(connection, examples, List.of(
                    new Sampler.Count(minute, "gh", "invalid-signature", 40),
                    new Sampler.Count(minute, "_other", "unknown-source", 1)));
            RefusalWriter.write(connection, List.of(), List.of(new Sampler.Count(minute, "gh", "invalid-signature", 2)));
        }

        List<Refusal> first = reads.list(new RefusalQuery("gh", "invalid-signature", null, null, null, 2));
        List<Refusal> second = reads.list(new RefusalQuery("gh", null, null, null, first.get(1).id(), 2));
        assertEquals(List.of("d-4", "d-3"), first.stream().map(r -> r.headers().get("x-delivery")).toList());
        assertEquals(List.of("d-2", "d-1"), second.stream().map(r -> r.headers().get("x-delivery")).toList());
        assertEquals(Map.of("x-delivery", "d-4", "x-hub-signature-256", "[redacted]"), first.get(0).headers());
        assertEquals(1, reads.list(new RefusalQuery(null, "unknown-source", null, null, null, 50)).size());
        assertEquals(List.of(new RefusedDeliveries.ReasonCount("gh", "invalid-signature", 42, T0),
                        new RefusedDeliveries.ReasonCount("_other", "unknown-source", 1, T0)),
                reads.counts(T0));
    }

    @Test
    void theOldestGoBeyondTheCountKept() throws SQLException {
        var examples = new ArrayList<Refusal>();
        for (int i = 0; i < 7; i++) {
            examples.add(example("gh", Rejection.INVALID_SIGNATURE, Instant.now(), "d-" + i));
        }
        var writer = new RefusalWriter();
        writer.maxKept = 3;
        writer.keepDays = 7;
        try (var connection = h2.getConnection()) {
            RefusalWriter.write(connection, examples, List.of());
            writer.trim(connection, System.currentTimeMillis());
        }

        List<Refusal> kept = reads.list(new RefusalQuery(null, null, null, null, null, 50));
        assertEquals(List.of("d-6", "d-5", "d-4"), kept.stream().map(r -> r.headers().get("x-delivery")).toList());
        assertTrue(reads.find(kept.get(0).id()).isPresent());
    }

    @Test
    void aBodyIsReadWithItsExampleOnlyAndOnlyTheNewestBodiesAreKept() throws SQLException {
        var examples = new ArrayList<Refusal>();
        for (int i = 0; i < 4; i++) {
            examples.add(example("gh", Rejection.INVALID_SIGNATURE, Instant.now(), "d-" + i));
        }
        examples.add(example("gh", Rejection.INVALID_SIGNATURE, Instant.now(), "no-body").withoutBody());
        var writer = new RefusalWriter();
        writer.maxKept = 100;
        writer.keepDays = 7;
        writer.maxKeptBodies = 2;
        try (var connection = h2.getConnection()) {
            RefusalWriter.write(connection, examples, List.of());
            writer.trim(connection, System.currentTimeMillis());
        }

        List<Refusal> kept = reads.list(new RefusalQuery(null, null, null, null, null, 50));
        assertEquals(List.of(false, true, true, false, false), kept.stream().map(Refusal::bodyKept).toList(),
                "newest first: the example without a body, then the two newest bodies; the rows stay");
        assertEquals(5, kept.size());
        assertTrue(kept.stream().allMatch(r -> r.body() == null), "a list reads no body");
        Refusal one = reads.find(kept.get(1).id()).orElseThrow();
        assertArrayEquals("{}".getBytes(), one.body());
        assertTrue(one.bodyKept());
        assertNull(reads.find(kept.get(0).id()).orElseThrow().body());
    }

    private static Refusal example(String source, Rejection reason, Instant at, String delivery) {
        Map<String, String> headers = Map.of("X-Delivery", delivery, "X-Hub-Signature-256", "sha256=abc");
        List<String> names = List.of("X-Delivery", "X-Hub-Signature-256");
        return Refusal.example(at, source, reason, "detail", "127.0.0.1", names, headers::get, 2, "{}".getBytes());
    }
}
