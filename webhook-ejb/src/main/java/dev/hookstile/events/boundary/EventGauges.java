package dev.hookstile.events.boundary;

import dev.hookstile.events.entity.EventStatus;
import dev.hookstile.metrics.boundary.Family;
import dev.hookstile.metrics.boundary.Gauge;
import dev.hookstile.metrics.boundary.Metrics;
import dev.hookstile.platform.boundary.SchemaMigration;
import dev.hookstile.source.Source;
import dev.hookstile.source.boundary.Sources;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
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
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The recorded events' gauges per source: waiting (queued by a replay, or retrying), dead, and the age of the oldest
 * waiting. Counted by a timer every {@value #EVERY_SECONDS} s over the index by status and source
 * ({@link EventCounts}), never on a scrape: Payara calls a scrape's code outside the application's context, and a
 * scrape must not wait for the database. Each count stops at {@value #COUNT_LIMIT} ("at least"). Events still in
 * the broker's queue are not recorded yet: they are {@code hookstile_queue_waiting_messages}.
 */
@Singleton
@Startup
// Bean-managed: a scrape or the relay counting an attempt never waits for the timer's query.
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class EventGauges {

    static final int EVERY_SECONDS = 10;
    static final int COUNT_LIMIT = 1_000_000;
    private static final Logger LOG = Logger.getLogger(EventGauges.class.getName());

    @Inject
    EventCounts counts;

    @Inject
    Sources sources;

    @Inject
    Metrics metrics;

    @Inject
    SchemaMigration schema;

    @Resource
    TimerService timers;

    private Family<Gauge> waiting;
    private Family<Gauge> dead;
    private Family<Gauge> oldestAge;

    @PostConstruct
    void schedule() {
        waiting = metrics.gauge("hookstile_events_waiting",
                "Recorded events queued (by a replay) or retrying, by source; at most " + COUNT_LIMIT, "source");
        dead = metrics.gauge("hookstile_events_dead", "Dead events, by source; at most " + COUNT_LIMIT, "source");
        oldestAge = metrics.gauge("hookstile_events_oldest_waiting_age_seconds",
                "Since the oldest waiting event of a source was received; 0 when none waits", "source");
        for (Source source : sources.all()) {
            waiting.labels(source.name());
            dead.labels(source.name());
            oldestAge.labels(source.name());
        }
        long every = EVERY_SECONDS * 1_000L;
        timers.createIntervalTimer(1_000, every, new TimerConfig(null, false));
    }

    @Timeout
    void refresh() {
        for (Source source : sources.all()) {
            String name = source.name();
            try {
                EventCounts.Summary summary = counts.summary(COUNT_LIMIT, name, EventStatus.RECEIVED,
                        EventStatus.RETRYING, EventStatus.DEAD);
                waiting.labels(name).set(summary.counts().get(EventStatus.RECEIVED)
                        + summary.counts().get(EventStatus.RETRYING));
                dead.labels(name).set(summary.counts().get(EventStatus.DEAD));
                Instant now = Instant.now();
                oldestAge.labels(name).set(summary.oldestWaiting()
                        .map(at -> Math.max(0, Duration.between(at, now).toMillis()) / 1000.0).orElse(0.0));
            } catch (RuntimeException e) {
                // The database is away: the gauges keep their last values; the health checks say why.
                LOG.log(Level.FINE, e, () -> "Could not count the events of " + name);
                return;
            }
        }
    }
}
