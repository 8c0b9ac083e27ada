package dev.hookstile.replay.boundary;

import dev.hookstile.api.Text;
import dev.hookstile.events.boundary.ContentSearch;
import dev.hookstile.events.boundary.EventCounts;
import dev.hookstile.events.boundary.EventQuery;
import dev.hookstile.events.boundary.EventSummary;
import dev.hookstile.events.boundary.RecordedEvents;
import dev.hookstile.events.entity.EventStatus;
import dev.hookstile.platform.AfterCommit;
import dev.hookstile.platform.boundary.LogFields;
import dev.hookstile.platform.boundary.SchemaMigration;
import dev.hookstile.replay.control.ReplayJobRecords;
import dev.hookstile.replay.entity.ReplayJob;
import dev.hookstile.replay.entity.ReplayJobStatus;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Bulk replays as jobs: {@link #start} records the job and returns at once; the events the filter selects (as
 * received up to that moment) are queued again one by one in the background, each in its own transaction, through
 * {@link Replays}. Starting the same filter with the same request id again returns the same job and replays
 * nothing more, so a client can retry the call safely. A filter on what bodies or headers hold reads the events its
 * other filters select, page by page, and replays those that match ({@link ContentSearch#matching}): the other filters
 * bound that walk, as they bound every job.
 *
 * <p>A replay must never crowd out new deliveries. One job runs at a time per database (across instances); a filter
 * that selects more than {@code hookstile.replay.max-events} is refused; the job queues a page only while fewer than
 * {@code hookstile.replay.max-waiting} replayed events wait to be processed, so the backlog stays in the database and
 * not in the broker's store (whose filling would make ingest answer 503), and new deliveries queue behind a few
 * hundred replayed messages at most; its messages go at a lower JMS priority ({@link
 * dev.hookstile.queue.boundary.EventQueue#REPLAY_PRIORITY}) for brokers that honour it.
 *
 * <p>A job belongs to the instance running it, which writes its heartbeat at least every {@link #HEARTBEAT}. A job
 * whose heartbeat is older than {@link #ABANDONED} (its instance stopped) is marked {@code interrupted}: at a start,
 * when another job asks for the slot, and when it is looked at. Starting it again with a new request id replays what
 * is still selected.
 */
@ApplicationScoped
public class ReplayJobs {

    private static final Logger LOG = Logger.getLogger(ReplayJobs.class.getName());
    private static final int PAGE = 200;
    /** How often a running or waiting job writes its heartbeat. */
    static final Duration HEARTBEAT = Duration.ofSeconds(10);
    /** A running job silent this long has lost its instance. */
    static final Duration ABANDONED = Duration.ofSeconds(60);
    /** How often a paced job looks again whether the replayed backlog went down. */
    private static final long PACE_MILLIS = 200;

    @Inject
    @ConfigProperty(name = "hookstile.replay.max-events", defaultValue = "100000")
    int maxEvents;

    @Inject
    @ConfigProperty(name = "hookstile.replay.max-waiting", defaultValue = "500")
    int maxWaiting;

    @Inject
    EntityManager em;

    @Inject
    RecordedEvents events;

    @Inject
    Replays replays;

    @Inject
    ReplayJobRecords records;

    @Inject
    EventCounts counts;

    @Inject
    ContentSearch content;

    @Resource
    ManagedExecutorService executor;

    @Resource
    TransactionSynchronizationRegistry transactions;

    /**
     * The job for this filter and request id: a new one, running, or the one an earlier identical call started.
     *
     * @throws ReplayRefused when another job runs (409), or the filter selects more than {@code max-events} (422)
     */
    @Transactional(dontRollbackOn = ReplayRefused.class)
    public ReplayJob start(ReplayFilter filter, String requestId) {
        ReplayFilter bounded = filter.until() == null ? filter.until(Instant.now()) : filter;
        String key = requestKey(filter, requestId);
        Optional<ReplayJob> earlier = byRequest(key);
        if (earlier.isPresent()) {
            return earlier.get();
        }
        long selected = counts.matching(bounded.query(1), maxEvents + 1);
        if (selected > maxEvents) {
            throw new ReplayRefused(ReplayRefused.TOO_LARGE, "the filter selects more than "
                    + maxEvents + " events" + (bounded.content() ? " before its body and header conditions, which are"
                    + " checked on each of them" : "") + ", the most one job replays (HOOKSTILE_REPLAY_MAX_EVENTS):"
                    + " narrow it, with since and until, and replay the parts one after another");
        }
        String id = UUID.randomUUID().toString();
        int created = create(id, key, bounded);
        if (created == 0 && byRequest(key).isEmpty() && records.interruptAbandoned(ABANDONED) > 0) {
            // The job holding the slot had lost its instance: the slot is free now.
            created = create(id, key, bounded);
        }
        if (created == 0) {
            Optional<ReplayJob> same = byRequest(key);
            if (same.isPresent()) {
                return same.get();
            }
            String running = records.running().orElse("(finished meanwhile: try again)");
            throw new ReplayRefused(ReplayRefused.JOB_RUNNING, "replay job " + running + " is running; one job runs"
                    + " at a time, so that replays never crowd out new deliveries: wait for it"
                    + " (GET /api/replays/" + running + ") or cancel it");
        }
        ReplayJob job = byRequest(key).orElseThrow();
        LogFields.of("replayJob", id).and("filter", bounded.toJson()).log(LOG, Level.INFO, () -> "Replay job "
                + id + " started: " + bounded.status().column() + " events"
                + (bounded.source() == null ? "" : " of source " + Text.escaped(bounded.source()))
                + (bounded.type() == null ? "" : " of type " + Text.quoted(bounded.type())
                + (bounded.typePrefix() ? "*" : ""))
                + (bounded.error() == null ? "" : " that failed with the error of a dead group")
                + (bounded.key() == null ? "" : " with a search key's value")
                + (bounded.content() ? " whose body or headers hold what was searched" : "")
                + " received " + (bounded.since() == null ? "" : "from " + bounded.since() + " ")
                + "until " + bounded.until() + " (" + selected + " selected)");
        // Only once the job is committed: a job whose row rolled back must replay nothing.
        AfterCommit.run(transactions, () -> executor.execute(() -> run(job.getId(), bounded)));
        return job;
    }

    private int create(String id, String key, ReplayFilter bounded) {
        return em.createNamedQuery(ReplayJob.CREATE)
                .setParameter(1, id)
                .setParameter(2, key)
                .setParameter(3, bounded.toJson())
                .setParameter(4, Timestamp.from(Instant.now()))
                .executeUpdate();
    }

    private Optional<ReplayJob> byRequest(String key) {
        return em.createNamedQuery(ReplayJob.BY_REQUEST, ReplayJob.class).setParameter("key", key)
                .getResultStream().findFirst();
    }

    /** The job; one whose instance stopped is shown {@code interrupted}, not running for ever. */
    public Optional<ReplayJob> find(String id) {
        ReplayJob job = em.find(ReplayJob.class, id);
        if (job != null && job.getStatus() == ReplayJobStatus.RUNNING && records.interruptAbandoned(ABANDONED) > 0) {
            em.clear();
            job = em.find(ReplayJob.class, id);
        }
        return Optional.ofNullable(job);
    }

    /** What cancelling a job did. */
    public enum Cancel { CANCELLED, FINISHED, NOT_FOUND }

    /**
     * Stops a running job: it stops before its next page of events (the events queued until then stay queued), on
     * whichever instance runs it.
     */
    public Cancel cancel(String id) {
        if (records.cancel(id)) {
            return Cancel.CANCELLED;
        }
        return find(id).isPresent() ? Cancel.FINISHED : Cancel.NOT_FOUND;
    }

    /**
     * A job left running by a stopped instance will not finish: say so instead of showing it running forever, once
     * the schema is there, at start-up. Only a job whose heartbeat stopped: another instance's running job is left to
     * it.
     */
    void interruptLeftovers(@Observes SchemaMigration.Ready ready) {
        try {
            records.interruptAbandoned(ABANDONED);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Could not mark interrupted replay jobs", e);
        }
    }

    private void run(String jobId, ReplayFilter filter) {
        int matched = 0;
        int queued = 0;
        try {
            EventQuery query = filter.query(PAGE);
            List<EventSummary> page = events.list(query);
            while (!page.isEmpty()) {
                for (EventSummary event : content.matching(page, filter.match(), filter.header())) {
                    if (matched == maxEvents) {
                        // Checked at the start; events received since with an earlier time cannot make it more.
                        break;
                    }
                    matched++;
                    if (replays.replayForJob(event.source(), event.eventId(), event.status(), event.attempts())
                            == Replays.Result.QUEUED) {
                        queued++;
                    }
                }
                if (!records.progress(jobId, matched, queued) || !paced(jobId)) {
                    // Cancelled (by an operator, on any instance) or interrupted: its row says so already.
                    ended(jobId, records.cancelled(jobId) ? ReplayJobStatus.CANCELLED : ReplayJobStatus.INTERRUPTED,
                            matched, queued, Level.INFO, null);
                    return;
                }
                page = page.size() < PAGE || matched == maxEvents ? List.of()
                        : events.list(query.after(EventQuery.Position.of(page.get(page.size() - 1))));
            }
            records.finish(jobId, ReplayJobStatus.COMPLETED, matched, queued, null);
            ended(jobId, ReplayJobStatus.COMPLETED, matched, queued, Level.INFO, null);
        } catch (InterruptedException e) {
            // The instance is stopping: the job stays running until its silence marks it interrupted.
            Thread.currentThread().interrupt();
            ended(jobId, ReplayJobStatus.INTERRUPTED, matched, queued, Level.INFO, null);
        } catch (Exception e) {
            ended(jobId, ReplayJobStatus.FAILED, matched, queued, Level.WARNING, e);
            records.finish(jobId, ReplayJobStatus.FAILED, matched, queued, String.valueOf(e));
        }
    }

    /**
     * Waits while {@code max-waiting} replayed events or more wait to be processed (queued again, not yet claimed:
     * {@code received}, counted in the database, whichever job or instance queued them), writing the heartbeat
     * meanwhile.
     *
     * @return {@code false} when the job stopped running meanwhile (cancelled, interrupted)
     */
    private boolean paced(String jobId) throws InterruptedException {
        EventQuery waiting = new EventQuery(null, EventStatus.RECEIVED, null, null, null, null, 1);
        long lastBeat = System.nanoTime();
        while (counts.matching(waiting, maxWaiting) >= maxWaiting) {
            Thread.sleep(PACE_MILLIS);
            if (System.nanoTime() - lastBeat >= HEARTBEAT.toNanos()) {
                if (!records.heartbeat(jobId)) {
                    return false;
                }
                lastBeat = System.nanoTime();
            }
        }
        return true;
    }

    /** One line per job, when it ends, with its counts: never one per event it replays. */
    private static void ended(String jobId, ReplayJobStatus status, int matched, int queued, Level level,
                              Throwable failure) {
        LogFields.of("replayJob", jobId).and("status", status.column()).and("matched", matched).and("queued", queued)
                .log(LOG, level, failure, () -> "Replay job " + jobId + " " + status.column() + ": " + matched
                        + " events matched, " + queued + " queued again");
    }

    static String requestKey(ReplayFilter filter, String requestId) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(
                    (filter.toJson() + "\n" + requestId).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
