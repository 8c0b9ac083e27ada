package dev.hookstile.replay.boundary;

import dev.hookstile.events.entity.EventStatus;
import dev.hookstile.replay.boundary.ReplayJobs;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

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
    void aDeadGroupsFilterNamesItsExactTypeAndErrorAndIsAnotherJob() {
        var group = new ReplayFilter("gh", null, "push", null, null, true, "TransientFailure: connection refused");

        assertEquals("{\"status\":\"dead\",\"source\":\"gh\",\"type\":\"push\",\"typeExact\":true,"
                + "\"error\":\"TransientFailure: connection refused\"}", group.toJson());
        assertNotEquals(ReplayJobs.requestKey(group, "r-1"),
                ReplayJobs.requestKey(new ReplayFilter("gh", null, "push", null, null), "r-1"));
    }
}
