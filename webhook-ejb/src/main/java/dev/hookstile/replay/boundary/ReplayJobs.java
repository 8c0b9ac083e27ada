package dev.hookstile.replay.boundary;

import dev.hookstile.events.boundary.EventCounts;
import dev.hookstile.events.boundary.EventQuery;
import dev.hookstile.events.boundary.EventSummary;
import dev.hookstile.events.boundary.RecordedEvents;
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
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Timestamp;
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
 * nothing more, so a client can retry the call safely. A job interrupted by a shutdown is marked
 * {@code interrupted} at the next start; starting it again with a new request id replays what is still selected.
 */
@ApplicationScoped
public class ReplayJobs {

    private static final Logger LOG = Logger.getLogger(ReplayJobs.class.getName());
    private static final int PAGE = 200;

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

    @Resource
    ManagedExecutorService executor;

    @Resource
    TransactionSynchronizationRegistry transactions;

    /** The job for this filter and request id: a new one, running, or the one an earlier identical call started. */
    @Transactional
    public ReplayJob start(ReplayFilter filter, String requestId) {
        ReplayFilter bounded = filter.until() == null ? filter.until(Instant.now()) : filter;
        String key = requestKey(filter, requestId);
        String id = UUID.randomUUID().toString();
        int created = em.createNamedQuery(ReplayJob.CREATE)
                .setParameter(1, id)
                .setParameter(2, key)
                .setParameter(3, bounded.toJson())
                .setParameter(4, Timestamp.from(Instant.now()))
                .executeUpdate();
        ReplayJob job = em.createNamedQuery(ReplayJob.BY_REQUEST, ReplayJob.class)
                .setParameter("key", key)
                .getSingleResult();
        if (created == 1) {
            LogFields.of("replayJob", id).and("filter", bounded.toJson()).log(LOG, Level.INFO, () -> "Replay job "
                    + id + " started: " + bounded.status().column() + " events"
                    + (bounded.source() == null ? "" : " of source " + LogFields.printable(bounded.source()))
                    + (bounded.type() == null ? "" : " of type " + LogFields.quoted(bounded.type())
                    + (bounded.typePrefix() ? "*" : ""))
                    + (bounded.error() == null ? "" : " that failed with the error of a dead group")
                    + " received " + (bounded.since() == null ? "" : "from " + bounded.since() + " ")
                    + "until " + bounded.until());
            // Only once the job is committed: a job whose row rolled back must replay nothing.
            transactions.registerInterposedSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {
                }

                @Override
                public void afterCompletion(int status) {
                    if (status == Status.STATUS_COMMITTED) {
                        executor.execute(() -> run(job.getId(), bounded));
                    }
                }
            });
        }
        return job;
    }

    public Optional<ReplayJob> find(String id) {
        return Optional.ofNullable(em.find(ReplayJob.class, id));
    }

    /** The most events {@link #preview} counts. */
    public static final int PREVIEW_LIMIT = 100_000;

    /** How many events a replay with this filter would select now, at most {@link #PREVIEW_LIMIT}. */
    public long preview(ReplayFilter filter) {
        return counts.matching(filter.query(1), PREVIEW_LIMIT);
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
     * A job left running by a stopped instance will not finish: say so instead of showing it running forever. Once
     * the schema is there, at start-up.
     */
    void interruptLeftovers(@Observes SchemaMigration.Ready ready) {
        try {
            records.interruptRunning();
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
                for (EventSummary event : page) {
                    matched++;
                    if (replays.replayForJob(event.source(), event.eventId(), event.status(), event.attempts())
                            == Replays.Result.QUEUED) {
                        queued++;
                    }
                }
                records.progress(jobId, matched, queued);
                if (records.cancelled(jobId)) {
                    ended(jobId, ReplayJobStatus.CANCELLED, matched, queued, Level.INFO, null);
                    return;
                }
                page = page.size() < PAGE ? List.of()
                        : events.list(query.after(EventQuery.Position.of(page.get(page.size() - 1))));
            }
            records.finish(jobId, ReplayJobStatus.COMPLETED, matched, queued, null);
            ended(jobId, ReplayJobStatus.COMPLETED, matched, queued, Level.INFO, null);
        } catch (Exception e) {
            ended(jobId, ReplayJobStatus.FAILED, matched, queued, Level.WARNING, e);
            records.finish(jobId, ReplayJobStatus.FAILED, matched, queued, String.valueOf(e));
        }
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
