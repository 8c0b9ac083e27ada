package dev.hookstile.replay.control;

import dev.hookstile.replay.entity.ReplayJob;
import dev.hookstile.replay.entity.ReplayJobStatus;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** A job's progress, each write its own transaction: the job runs in the background, outside any request. */
@ApplicationScoped
public class ReplayJobRecords {

    @Inject
    EntityManager em;

    /** Saves the job's counts with its heartbeat; {@code false} when it is no longer running (cancelled, interrupted). */
    @Transactional
    public boolean progress(String jobId, int matched, int queued) {
        return em.createNamedQuery(ReplayJob.PROGRESS).setParameter(1, matched).setParameter(2, queued)
                .setParameter(3, Timestamp.from(Instant.now())).setParameter(4, jobId).executeUpdate() == 1;
    }

    /** The job's owner is alive; {@code false} when it is no longer running (cancelled, interrupted). */
    @Transactional
    public boolean heartbeat(String jobId) {
        return em.createNamedQuery(ReplayJob.HEARTBEAT).setParameter(1, Timestamp.from(Instant.now()))
                .setParameter(2, jobId).executeUpdate() == 1;
    }

    /** The id of the job running now, on any instance. */
    @Transactional
    public Optional<String> running() {
        List<?> ids = em.createNamedQuery(ReplayJob.RUNNING).getResultList();
        return ids.isEmpty() ? Optional.empty() : Optional.of((String) ids.get(0));
    }

    @Transactional
    public void finish(String jobId, ReplayJobStatus status, int matched, int queued, String error) {
        em.createNamedQuery(ReplayJob.FINISH).setParameter(1, status.column()).setParameter(2, matched)
                .setParameter(3, queued).setParameter(4, Timestamp.from(Instant.now()))
                .setParameter(5, error == null ? null : error.substring(0, Math.min(error.length(), 4000)))
                .setParameter(6, jobId).executeUpdate();
    }

    /** Whether the job was running and is cancelled now. */
    @Transactional
    public boolean cancel(String jobId) {
        return em.createNamedQuery(ReplayJob.CANCEL).setParameter(1, Timestamp.from(Instant.now()))
                .setParameter(2, jobId).executeUpdate() == 1;
    }

    /** Whether an operator cancelled the job: its loop asks between pages (any instance may have cancelled it). */
    @Transactional
    public boolean cancelled(String jobId) {
        List<?> status = em.createNamedQuery(ReplayJob.STATUS).setParameter(1, jobId).getResultList();
        return !status.isEmpty() && ReplayJobStatus.CANCELLED.column().equals(status.get(0));
    }

    /**
     * Marks interrupted the running jobs whose heartbeat is older than {@code silence}: their instance stopped. In a
     * transaction of its own, so that the freed slot is visible to the start that asked.
     *
     * @return how many were
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public int interruptAbandoned(Duration silence) {
        Instant now = Instant.now();
        return em.createNamedQuery(ReplayJob.INTERRUPT).setParameter(1, Timestamp.from(now))
                .setParameter(2, Timestamp.from(now.minus(silence))).executeUpdate();
    }
}
