package dev.hookstile.replay.boundary;

import dev.hookstile.events.entity.EventStatus;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReplayFilterTest {

    private static final Instant SINCE = Instant.parse("2026-11-23T08:00:00Z");

    @Test
    void replaysDeadEventsUnlessAnotherStatusIsAsked() {
        assertEquals(EventStatus.DEAD, new ReplayFilter("gh", null, null, null, null).status());
        assertEquals(EventStatus.COMPLETED, new ReplayFilter("gh", EventStatus.COMPLETED, null, null, null).status());
    }

    @Test
    void theSameFilterAndRequestIdAreTheSameJob() {
        var filter = new ReplayFilter("gh", EventStatus.DEAD, "push", SINCE, null);

        assertEquals(ReplayJobs.requestKey(filter, "r-1"),
                ReplayJobs.requestKey(new ReplayFilter("gh", null, "push", SINCE, null), "r-1"));
    }

    @Test
    void anotherRequestIdOrFilterIsAnotherJob() {
        var filter = new ReplayFilter("gh", EventStatus.DEAD, null, SINCE, null);

        assertNotEquals(ReplayJobs.requestKey(filter, "r-1"), ReplayJobs.requestKey(filter, "r-2"));
        assertNotEquals(ReplayJobs.requestKey(filter, "r-1"),
                ReplayJobs.requestKey(new ReplayFilter("pay", EventStatus.DEAD, null, SINCE, null), "r-1"));
    }

    @Test
    void canonicalJsonNamesOnlyWhatIsSet() {
        assertEquals("{\"status\":\"dead\",\"source\":\"gh\",\"since\":\"2026-11-23T08:00:00Z\"}",
                new ReplayFilter("gh", null, null, SINCE, null).toJson());
    }

    @Test
    void aDeadGroupsFilterNamesItsErrorAndIsAnotherJob() {
        var group = new ReplayFilter("gh", null, "push", null, null, false, "TransientFailure: connection refused");

        assertEquals("{\"status\":\"dead\",\"source\":\"gh\",\"type\":\"push\","
                + "\"error\":\"TransientFailure: connection refused\"}", group.toJson());
        assertNotEquals(ReplayJobs.requestKey(group, "r-1"),
                ReplayJobs.requestKey(new ReplayFilter("gh", null, "push", null, null), "r-1"));
    }

    @Test
    void theTypeIsExactUnlessAPrefixIsAskedForAndThePrefixIsAnotherJob() {
        var exact = new ReplayFilter("gh", null, "invoice.paid", null, null);
        var prefix = new ReplayFilter("gh", null, "invoice.paid", null, null, true, null);

        assertTrue(exact.query(10).typeExact());
        assertFalse(prefix.query(10).typeExact());
        assertEquals("{\"status\":\"dead\",\"source\":\"gh\",\"type\":\"invoice.paid\"}", exact.toJson());
        assertEquals("{\"status\":\"dead\",\"source\":\"gh\",\"type\":\"invoice.paid\",\"typePrefix\":true}",
                prefix.toJson());
        assertNotEquals(ReplayJobs.requestKey(exact, "r-1"), ReplayJobs.requestKey(prefix, "r-1"));
    }

    @Test
    void aBodyFragmentAndAHeaderAreNamedInTheCanonicalFormAndMakeAnotherJob() {
        var content = new ReplayFilter("gh", null, null, null, null, false, null, null, null,
                dev.hookstile.source.JsonMatch.parse("{ \"data\" : {\"status\": \"failed\"}}"),
                new dev.hookstile.events.boundary.ContentSearch.Header("X-GitHub-Event", "push"));

        assertTrue(content.content());
        assertFalse(new ReplayFilter("gh", null, null, null, null).content());
        assertEquals("{\"status\":\"dead\",\"source\":\"gh\",\"match\":{\"data\":{\"status\":\"failed\"}},"
                + "\"header\":\"x-github-event:push\"}", content.toJson(), "compact, the header's name in lower case");
        assertNotEquals(ReplayJobs.requestKey(content, "r-1"),
                ReplayJobs.requestKey(new ReplayFilter("gh", null, null, null, null), "r-1"));
    }
}
