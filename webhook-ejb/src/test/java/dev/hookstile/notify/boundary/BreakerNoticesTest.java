package dev.hookstile.notify.boundary;

import dev.hookstile.notify.control.NotifySettings;

import dev.hookstile.MapConfig;
import dev.hookstile.notify.control.Notice;
import dev.hookstile.outbox.boundary.BreakerChange;
import dev.hookstile.source.boundary.Sources;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;

class BreakerNoticesTest {

    private static final Instant T0 = Instant.parse("2026-11-25T10:00:00Z");
    private static final String DOWN = "https://backoffice.example.com/hooks";
    private static final String NOTIFY = "https://ops.example.com/hooks";
    private static final String SECRET = "whsec_YS1ub3RpZnktc2VjcmV0LW9mLTMyLWJ5dGVzLWxvbmc=";

    private final BreakerNotices notices = notices();

    private static BreakerNotices notices() {
        var notices = new BreakerNotices();
        notices.settings = new NotifySettings(new MapConfig(Map.of("hookstile.notify.url", NOTIFY,
                "hookstile.notify.secret", SECRET)));
        notices.sources = new Sources(new MapConfig(Map.ofEntries(
                entry("hookstile.sources", "pay,billing,gh"),
                entry("hookstile.sources.pay.provider", "stripe"),
                entry("hookstile.sources.pay.secrets", "whsec_abc"),
                entry("hookstile.sources.pay.destination-url", DOWN),
                entry("hookstile.sources.pay.destination-secret", SECRET),
                entry("hookstile.sources.billing.provider", "stripe"),
                entry("hookstile.sources.billing.secrets", "whsec_abc"),
                entry("hookstile.sources.billing.destination-url", DOWN),
                entry("hookstile.sources.billing.destination-secret", SECRET),
                entry("hookstile.sources.gh.provider", "github"),
                entry("hookstile.sources.gh.secrets", "a-github-secret-long-enough"))));
        return notices;
    }

    private static List<Notice> sorted(List<Notice> notices) {
        return notices.stream().sorted(Comparator.comparing(Notice::id)).toList();
    }

    @Test
    void changesAreCountedPerWindowAndTakenOnceTheWindowEnded() {
        notices.changed(new BreakerChange(DOWN, true, T0.plusSeconds(5)));
        notices.changed(new BreakerChange(DOWN, false, T0.plusSeconds(20)));
        notices.changed(new BreakerChange(DOWN, true, T0.plusSeconds(40)));
        notices.changed(new BreakerChange(DOWN, true, T0.plusSeconds(70)));

        assertEquals(List.of(), notices.takeEnded(T0.plusSeconds(59)));
        List<Notice> ended = sorted(notices.takeEnded(T0.plusSeconds(60)));

        assertEquals(List.of(
                new Notice(Notice.Type.BREAKER_CLOSED, "billing", null, 1, T0.plusSeconds(20), T0.plusSeconds(20), T0,
                        null),
                new Notice(Notice.Type.BREAKER_CLOSED, "pay", null, 1, T0.plusSeconds(20), T0.plusSeconds(20), T0,
                        null),
                new Notice(Notice.Type.BREAKER_OPENED, "billing", null, 2, T0.plusSeconds(5), T0.plusSeconds(40), T0,
                        null),
                new Notice(Notice.Type.BREAKER_OPENED, "pay", null, 2, T0.plusSeconds(5), T0.plusSeconds(40), T0,
                        null)), ended, "every source forwarding to the URL");
        assertEquals(List.of(), notices.takeEnded(T0.plusSeconds(60)), "taken once");
        assertEquals(2, notices.takeEnded(T0.plusSeconds(120)).size(), "the next window's");
    }

    @Test
    void theNotificationEndpointsOwnBreakerAndUnknownUrlsAreNotAnnounced() {
        notices.changed(new BreakerChange(NOTIFY, true, T0));
        notices.changed(new BreakerChange("https://effects.example.com/x", true, T0));

        assertEquals(List.of(), notices.takeEnded(T0.plusSeconds(3600)));
    }

    @Test
    void whatCouldNotBeScheduledIsKeptAndAddsUpWithLaterChanges() {
        notices.changed(new BreakerChange(DOWN, true, T0.plusSeconds(5)));
        List<Notice> failed = notices.takeEnded(T0.plusSeconds(60));

        notices.putBack(failed);
        notices.changed(new BreakerChange(DOWN, true, T0.plusSeconds(50)));

        List<Notice> again = sorted(notices.takeEnded(T0.plusSeconds(61)));
        assertEquals(2, again.size());
        assertEquals(2, again.get(0).count());
        assertEquals(T0.plusSeconds(5), again.get(0).first());
        assertEquals(T0.plusSeconds(50), again.get(0).last());
    }
}
