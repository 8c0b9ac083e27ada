package dev.hookstile.notify.boundary;

import dev.hookstile.notify.control.NotifySettings;

import dev.hookstile.events.boundary.EventCounts;
import dev.hookstile.events.entity.EventStatus;
import dev.hookstile.notify.control.Notice;
import dev.hookstile.notify.control.NotificationLog;
import dev.hookstile.notify.control.Window;
import dev.hookstile.outbox.boundary.Forwarding;
import dev.hookstile.outbox.boundary.ForwardingSchedule;
import dev.hookstile.outbox.boundary.Forwardings;
import dev.hookstile.platform.boundary.SchemaMigration;
import dev.hookstile.source.Source;
import dev.hookstile.source.boundary.Sources;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.Timeout;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Tells the operator's endpoint ({@code HOOKSTILE_NOTIFY_URL}) when events die, when a destination's breaker opens
 * or closes, and when a source's processing falls behind and catches up, through the outbox: each notification is
 * scheduled once (its id is fixed by what it covers), sent and retried by the relay like any forwarding, and nothing
 * of it is on the processing path.
 *
 * <p>A timer, every few seconds (a sixth of the group window, between 1 and 10 s):
 * <ul>
 *     <li>deaths: the windows of {@code HOOKSTILE_NOTIFY_GROUP_SECONDS} that ended at least the grace period ago are
 *     counted from the attempts' history, per source and failure kind, one notification each, and the shared mark
 *     moves past them. A storm of ten thousand deaths of one cause makes one notification per window;</li>
 *     <li>breakers: the changes this instance's relay saw ({@link BreakerNotices}), per window likewise;</li>
 *     <li>processing: a source whose oldest waiting event (retrying, or queued again by a replay) is older than
 *     {@code HOOKSTILE_NOTIFY_BEHIND_SECONDS} is behind, until that age is back under half of it (so that a backlog
 *     hovering at the threshold does not notify every turn);</li>
 *     <li>pauses: a destination paused longer than {@code HOOKSTILE_NOTIFY_PAUSED_SECONDS} (an hour), once per
 *     pause.</li>
 * </ul>
 */
@Singleton
@Startup
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class Notifications {

    /** How far back deaths are announced when the mark is older: notifications were off, or every instance down. */
    static final Duration LOOKBACK = Duration.ofDays(1);
    /** Windows with deaths announced per transaction: a backlog of windows is worked off in short steps. */
    static final int WINDOWS_PER_STEP = 60;
    /** One turn gives way after this long and goes on at the next: it must never hog the database. */
    private static final Duration BUDGET = Duration.ofSeconds(20);
    private static final Logger LOG = Logger.getLogger(Notifications.class.getName());

    @Inject
    NotifySettings settings;

    @Inject
    NotificationLog log;

    @Inject
    BreakerNotices breakers;

    @Inject
    ForwardingSchedule outbox;

    @Inject
    Sources sources;

    @Inject
    Forwardings forwardings;

    @Inject
    EventCounts counts;

    @Inject
    SchemaMigration schema;

    @Resource
    TimerService timers;

    private boolean wasFailing;

    @PostConstruct
    void schedule() {
        // Reading the settings here refuses the start on a bad one.
        LOG.info(settings::toString);
        if (!settings.enabled()) {
            return;
        }
        outbox.notifyTo(settings.endpoint().orElseThrow());
        long interval = turn(settings.group()).toMillis();
        timers.createIntervalTimer(interval, interval, new TimerConfig(null, false));
    }

    /** How often the timer looks: a sixth of a window, so a closed window waits little, from 1 to 10 s. */
    static Duration turn(Duration group) {
        long seconds = Math.max(1, Math.min(10, group.toSeconds() / 6));
        return Duration.ofSeconds(seconds);
    }

    @Timeout
    void turn() {
        if (!schema.migrated()) {
            return;
        }
        Instant now = Instant.now();
        Instant deadline = now.plus(BUDGET);
        try {
            deaths(now, deadline);
            breakerChanges(now);
            behind(now);
            pausedLong(now);
            if (wasFailing) {
                LOG.info("Notifications: caught up after a failure");
            }
            wasFailing = false;
        } catch (RuntimeException e) {
            // The database is away or busy: the marks did not move, the next turn takes the same steps.
            if (!wasFailing) {
                LOG.log(Level.WARNING, "Notifications: a turn failed; next try in " + turn(settings.group())
                        .toSeconds() + " s", e);
            }
            wasFailing = true;
        }
    }

    private void deaths(Instant now, Instant deadline) {
        Instant closedUntil = Window.closedUntil(now, settings.group(), settings.grace());
        boolean more;
        do {
            more = log.announceDeaths(closedUntil, now.minus(LOOKBACK), settings.group(), WINDOWS_PER_STEP, now);
        } while (more && Instant.now().isBefore(deadline));
    }

    private void breakerChanges(Instant now) {
        List<Notice> ended = breakers.takeEnded(now);
        if (ended.isEmpty()) {
            return;
        }
        try {
            log.scheduleAll(ended, now);
        } catch (RuntimeException e) {
            breakers.putBack(ended);
            throw e;
        }
    }

    private void behind(Instant now) {
        Duration threshold = settings.behind();
        if (threshold.isZero()) {
            return;
        }
        Map<String, Instant> behind = log.behind();
        for (Source source : sources.all()) {
            // Probes of an index's end every turn; the waiting events are counted only when there is news.
            Optional<Instant> oldest = counts.oldestWaiting(source.name());
            Duration age = oldest.map(at -> Duration.between(at, now)).orElse(Duration.ZERO);
            boolean isBehind = behind.containsKey(source.name());
            if (!isBehind && age.compareTo(threshold) > 0) {
                log.fellBehind(source.name(), oldest.orElseThrow(), waiting(source), now);
            } else if (isBehind && age.compareTo(threshold.dividedBy(2)) <= 0) {
                log.caughtUp(source.name(), waiting(source), now);
            }
        }
    }

    /** Each destination paused longer than {@code HOOKSTILE_NOTIFY_PAUSED_SECONDS}, once per pause. */
    private void pausedLong(Instant now) {
        Duration threshold = settings.paused();
        if (threshold.isZero()) {
            return;
        }
        forwardings.paused().forEach((destination, since) -> {
            if (Duration.between(since, now).compareTo(threshold) > 0) {
                String source = destination.get(0);
                log.pausedLong(source, since, forwardings.count(source, destination.get(1), Forwarding.PENDING,
                        EventCounts.COUNT_LIMIT), now);
            }
        });
    }

    /** Retrying and queued again by a replay, each counted up to {@link EventCounts#COUNT_LIMIT}. */
    private long waiting(Source source) {
        return counts.bySource(source.name(), EventStatus.RETRYING, EventStatus.RECEIVED).values().stream()
                .mapToLong(Long::longValue).sum();
    }
}
