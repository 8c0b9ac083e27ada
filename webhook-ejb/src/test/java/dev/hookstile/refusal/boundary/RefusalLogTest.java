package dev.hookstile.refusal.boundary;

import dev.hookstile.MapConfig;
import dev.hookstile.refusal.Refusal;
import dev.hookstile.refusal.control.RefusalSettings;
import dev.hookstile.source.Rejection;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

class RefusalLogTest {

    private final RefusalLog log = new RefusalLog();

    @BeforeEach
    void keepBodiesOfOneSource() {
        log.examplesPerMinute = 1000;
        log.settings = new RefusalSettings(new MapConfig(Map.of("hookstile.sources", "gh,pay",
                "hookstile.sources.pay.keep-refused-bodies", "true")));
        log.init();
    }

    @Test
    void aBodyIsKeptOnlyForASourceThatAskedForIt() {
        log.refused("gh", Rejection.INVALID_SIGNATURE, () -> example("gh", 10));
        log.refused("pay", Rejection.INVALID_SIGNATURE, () -> example("pay", 10));
        log.refused("_other", Rejection.UNKNOWN_SOURCE, () -> example("pay ", 10));

        List<Refusal> examples = log.drainExamples();

        assertNull(examples.get(0).body());
        assertEquals("0".repeat(64), examples.get(0).bodySha256().replaceAll("[0-9a-f]", "0"),
                "the hash is kept either way");
        assertNotNull(examples.get(1).body());
        assertNull(examples.get(2).body(), "a name no source has keeps no body, whatever it looks like");
    }

    @Test
    void theBodiesWaitingForTheWriterStayWithinTheirBound() {
        int fit = (int) (RefusalLog.PENDING_BODY_BYTES / Refusal.MAX_BODY);
        for (int i = 0; i < fit + 5; i++) {
            log.refused("pay", Rejection.INVALID_SIGNATURE, () -> example("pay", Refusal.MAX_BODY));
        }

        List<Refusal> examples = log.drainExamples();

        assertEquals(fit + 5, examples.size(), "every example is kept");
        assertEquals(fit, examples.stream().filter(e -> e.body() != null).count(), "only the bodies that fit");
        log.restoreExamples(examples);
        assertEquals(fit, log.drainExamples().stream().filter(e -> e.body() != null).count(),
                "a failed write's examples come back within the same bound");
        log.refused("pay", Rejection.INVALID_SIGNATURE, () -> example("pay", 10));
        assertNotNull(log.drainExamples().get(0).body(), "drained bodies leave room");
    }

    private static Refusal example(String source, int size) {
        return Refusal.example(Instant.now(), source, Rejection.INVALID_SIGNATURE, null, null, List.of(),
                name -> null, size, new byte[size]);
    }
}
