package dev.hookstile.replay.control;

import dev.hookstile.replay.entity.ReplayJob;
import dev.hookstile.replay.entity.ReplayJobStatus;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;

/** A job's progress, each write its own transaction: the job runs in the background, outside any request. */
@ApplicationScoped
public class ReplayJobRecords {

    @Inject
    EntityManager em;

    @Transactional
    public void progress(String jobId, int matched, int queued) {
        em.createNamedQuery(ReplayJob.PROGRESS).setParameter(1, matched).setParameter(2, queued)
                .setParameter(3, jobId).executeUpdate();
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

    @Transactional
    public void interruptRunning() {
        em.createNamedQuery(ReplayJob.INTERRUPT).setParameter(1, Timestamp.from(Instant.now())).executeUpdate();
    }
}
